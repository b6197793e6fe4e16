/** Linkifier validation (FACTS.md 10, API.md 2.7 and 4.17): patterns, URL templates, examples. */
import { doAddLinkifier, doUpdateLinkifier } from '@teamchat/core';
import { beforeEach, describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { type ChannelWorld, channelWorld } from './channel-helpers.js';
import { expectError } from './fixtures.js';

let c: ChannelWorld;
beforeEach(async () => {
  c = await channelWorld();
});

const add = (params: Record<string, unknown>) => doAddLinkifier.fromTransport(c.w.ctx, c.w.as(c.admin), params);
/** A ValidationFailureError: msg is the first message, `errors` every message by field. */
const expectInvalid = (result: Parameters<typeof expectError>[0], errors: Record<string, string[]>) =>
  expectError(result, 'BAD_REQUEST', Object.values(errors)[0]![0]!, 400, { errors });

describe('pattern and url_template', () => {
  it('a pattern RE2 does not compile gives "Bad regular expression" with RE2 error text', async () => {
    const url_template = 'https://example.com/{id}';
    expectInvalid(await add({ pattern: '(?P<id>[0-9]+', url_template }), { pattern: ['Bad regular expression: missing ): (?P<id>[0-9]+'] });
    // Perl features RE2 lacks: backreferences and lookaround.
    expectInvalid(await add({ pattern: '(?P<id>a)\\1', url_template }), { pattern: ['Bad regular expression: invalid escape sequence: \\1'] });
    expectInvalid(await add({ pattern: '(?<=x)(?P<id>a)', url_template }), { pattern: ['Bad regular expression: invalid named capture group: (?<=x)(?P<id>'] });
    expectInvalid(await add({ pattern: '(?P<id>a)(?P<id>b)', url_template }), { pattern: ['Bad regular expression: invalid named capture group: id'] });
    // A refused linkifier is neither stored nor announced.
    expect(await c.w.ctx.storage.read((tx) => tx.linkifiers.list(c.w.realm.id))).toEqual([]);
    expect(c.drain()).toEqual([]);
  });

  it('url_template must be RFC 6570', async () => {
    for (const url_template of ['https://example.com/{id', 'https://example.com/id}', 'https://example.com/{!id}', 'https://example.com/{i d}', 'https://x/{id:0}']) {
      expectInvalid(await add({ pattern: '#(?P<id>[0-9]+)', url_template }), { url_template: ['Invalid URL template.'] });
    }
    // Every level's syntax is accepted: operators, prefixes, explode, several variables.
    must(await add({ pattern: '#(?P<a>[0-9]+)/(?P<b>x)', url_template: 'https://x/{+a}{?b*}{#a:3}' }));
  });

  it('both fields bad, and blanks: every field is reported, msg the first', async () => {
    expectInvalid(await add({ pattern: '(', url_template: '{' }), { pattern: ['Bad regular expression: missing ): ('], url_template: ['Invalid URL template.'] });
    expectInvalid(await add({ pattern: '  ', url_template: '' }), { pattern: ['This field cannot be blank.'], url_template: ['This field cannot be blank.'] });
  });

  it('every template variable a named group and every named group used; the smallest name is reported', async () => {
    expectInvalid(await add({ pattern: '#(?P<id>[0-9]+)', url_template: 'https://x/{zed}/{id}/{alpha}' }), {
      __all__: ["Group 'alpha' in URL template is not present in linkifier pattern."],
    });
    expectInvalid(await add({ pattern: '(?P<org>[a-z]+)/(?P<repo>[a-z]+)#(?P<id>[0-9]+)', url_template: 'https://x/{org}' }), {
      __all__: ["Group 'id' in linkifier pattern is not present in URL template."],
    });
  });

  it('a pattern the realm has (after stripping) is a duplicate', async () => {
    must(await add({ pattern: '#(?P<id>[0-9]+)', url_template: 'https://x/{id}' }));
    expectInvalid(await add({ pattern: ' #(?P<id>[0-9]+) ', url_template: 'https://y/{id}' }), { __all__: ['Realm filter with this Realm and Pattern already exists.'] });
  });

  it('alternative_url_templates must be RFC 6570 templates', async () => {
    expectInvalid(await add({ pattern: '#(?P<id>[0-9]+)', url_template: 'https://x/{id}', alternative_url_templates: '["https://y/{id"]' }), {
      alternative_url_templates: ['Invalid URL template.'],
    });
  });
});

describe('example_input and reverse_template', () => {
  const base = { pattern: '#(?P<id>[0-9]+)', url_template: 'https://x/{id}' };

  it('example_input must match the whole pattern', async () => {
    expectInvalid(await add({ ...base, example_input: 'see #12' }), { example_input: ['Example input does not match the linkifier pattern.'] });
    must(await add({ ...base, example_input: '#12' }));
  });

  it('reverse_template needs example_input, known groups, and must give example_input back', async () => {
    expectInvalid(await add({ ...base, reverse_template: '#{id}' }), { reverse_template: ['A reverse template requires an example input.'] });
    expectInvalid(await add({ ...base, example_input: '#12', reverse_template: '#{nope}' }), {
      reverse_template: ["Group 'nope' in reverse template is not present in linkifier pattern."],
    });
    expectInvalid(await add({ ...base, example_input: '#12', reverse_template: 'issue {id}' }), {
      reverse_template: ["Reverse template gives 'issue 12' for the example input, not the example input itself."],
    });
    expectInvalid(await add({ ...base, example_input: '#12', reverse_template: '#{id' }), { reverse_template: ['Invalid reverse template.'] });
    must(await add({ ...base, example_input: '#12', reverse_template: '#{id}' }));
  });

  it('{{ and }} are literal braces in a reverse template', async () => {
    must(await add({ pattern: '\\{(?P<id>[0-9]+)\\}', url_template: 'https://x/{id}', example_input: '{7}', reverse_template: '{{{id}}}' }));
  });

  it('an empty string resets example_input and reverse_template to null on PATCH; omitted ones are kept', async () => {
    const { id } = must(await add({ ...base, example_input: '#12', reverse_template: '#{id}' }));
    const update = (params: Record<string, unknown>) => doUpdateLinkifier(c.w.ctx, c.w.as(c.admin), { filter_id: id, ...base, ...params });
    // Resetting example_input alone would leave reverse_template without it.
    expectInvalid(await update({ example_input: '' }), { reverse_template: ['A reverse template requires an example input.'] });
    must(await update({ url_template: 'https://z/{id}' }));
    let [stored] = await c.w.ctx.storage.read((tx) => tx.linkifiers.list(c.w.realm.id));
    expect(stored).toMatchObject({ urlTemplate: 'https://z/{id}', exampleInput: '#12', reverseTemplate: '#{id}' });
    must(await update({ example_input: '', reverse_template: '' }));
    [stored] = await c.w.ctx.storage.read((tx) => tx.linkifiers.list(c.w.realm.id));
    expect(stored).toMatchObject({ exampleInput: null, reverseTemplate: null });
  });
});
