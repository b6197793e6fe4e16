/** `<time:…>`: a moment every reader sees in their own time zone. */
import { formatIsoUtc, parseTime } from '../time-parse.js';
import type { InlineMatch, InlinePattern } from './engine.js';

/**
 * Renders `<time datetime="2017-06-05T22:30:00Z">` around the text as typed (so clients that do
 * not localize still show something), or a `timestamp-error` span when the time cannot be read.
 */
export const timestamp: InlinePattern = {
  name: 'timestamp',
  regex: /<time:(?<time>[^>]*?)>/g,
  handle: (match, env): InlineMatch => {
    const typed = env.stash.toSource(match.groups!.time!);
    const date = parseTime(typed, env.ctx.now);
    if (!date) {
      const error = `Invalid time format: ${typed}`;
      return { node: { kind: 'element', tag: 'span', attrs: { class: 'timestamp-error' }, content: error, literal: true } };
    }
    const datetime = formatIsoUtc(date);
    return { node: { kind: 'element', tag: 'time', attrs: { datetime }, content: typed, literal: true } };
  },
};
