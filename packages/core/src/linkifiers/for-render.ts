/** The realm's linkifiers as the Markdown renderer and message records use them. */
import { topicLinks, type Linkifier, type TopicLink } from '../markdown/index.js';
import type { Tx } from '../storage/types.js';

/** The realm's linkifiers in processing order, as the renderer takes them. */
export async function realmLinkifiers(tx: Tx, realmId: number): Promise<Linkifier[]> {
  return (await tx.linkifiers.list(realmId)).map(({ pattern, urlTemplate }) => ({ pattern, urlTemplate }));
}

/** `topic_links` of a message record (MessageView.topicLinks), computed once per topic. */
export function topicLinksWith(linkifiers: readonly Linkifier[]): (topic: string) => TopicLink[] {
  const known = new Map<string, TopicLink[]>();
  return (topic) => {
    let links = known.get(topic);
    if (!links) known.set(topic, (links = topicLinks(topic, linkifiers)));
    return links;
  };
}
