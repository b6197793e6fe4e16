/**
 * What goes on the wire, captured before it leaves: Basic credentials, User-Agent, path
 * parameters, JSON-typed parameters as JSON text, other strings as they are, GET parameters in
 * the query, files as multipart, and no credentials for URLs on another origin.
 */
import { createClient } from '@teamchat/client';
import { describe, expect, it } from 'vitest';

/** A client whose fetch records each request and answers success. */
function capturing(options: { email?: string; apiKey?: string; userAgent?: string } = { email: 'zoë@example.com', apiKey: 'KEY' }) {
  const requests: Request[] = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    requests.push(new Request(input, init));
    return Response.json({ result: 'success', msg: '' });
  }) as typeof globalThis.fetch;
  return { client: createClient({ url: 'https://chat.example.com/', fetch, ...options }), requests };
}

describe('@teamchat/client requests', () => {
  it('sends Basic credentials of a UTF-8 email and the User-Agent', async () => {
    const { client, requests } = capturing({ email: 'zoë@example.com', apiKey: 'KEY', userAgent: 'my-bot/2.0' });
    await client.getOwnUser();
    const [request] = requests;
    expect(request!.url).toBe('https://chat.example.com/api/v1/users/me');
    expect(request!.headers.get('authorization')).toBe(`Basic ${Buffer.from('zoë@example.com:KEY', 'utf8').toString('base64')}`);
    expect(request!.headers.get('user-agent')).toBe('my-bot/2.0');
  });

  it('a POST: form body with JSON-typed parameters as JSON and plain strings as they are', async () => {
    const { client, requests } = capturing();
    await client.sendMessage({ type: 'stream', to: 'general', topic: '[not json]', content: 'hi', read_by_sender: false });
    const body = new URLSearchParams(await requests[0]!.text());
    expect(requests[0]!.method).toBe('POST');
    expect(requests[0]!.headers.get('content-type')).toMatch(/^application\/x-www-form-urlencoded/);
    expect(Object.fromEntries(body)).toEqual({ type: 'stream', to: 'general', topic: '[not json]', content: 'hi', read_by_sender: 'false' });
  });

  it('a GET: parameters in the query, a narrow as JSON, path parameters encoded into the path', async () => {
    const { client, requests } = capturing();
    await client.getMessages({ anchor: 'newest', num_before: 5, num_after: 0, narrow: [['topic', 'a/b c']] });
    await client.getUser({ user_id: 'a b@example.com' });
    await client.getFileTemporaryUrl({ realm_id: 2, filename: 'ab/cd/my file.txt' });
    const query = Object.fromEntries(new URL(requests[0]!.url).searchParams);
    expect(query).toEqual({ anchor: 'newest', num_before: '5', num_after: '0', narrow: '[["topic","a/b c"]]' });
    expect(requests[0]!.body).toBeNull();
    expect(new URL(requests[1]!.url).pathname).toBe('/api/v1/users/a%20b%40example.com');
    // `{+filename}` keeps its slashes; each segment is still encoded.
    expect(new URL(requests[2]!.url).pathname).toBe('/api/v1/user_uploads/2/ab/cd/my%20file.txt');
  });

  it('files make the body multipart, beside the other parameters', async () => {
    const { client, requests } = capturing();
    await client.addRealmEmoji({ emoji_name: 'party' }, { files: { party: new File(['GIF89a'], 'party.gif', { type: 'image/gif' }) } });
    const request = requests[0]!;
    expect(new URL(request.url).pathname).toBe('/api/v1/realm/emoji/party');
    expect(request.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
    const form = await request.formData();
    const file = form.get('party') as File;
    expect([file.name, file.type, await file.text()]).toEqual(['party.gif', 'image/gif', 'GIF89a']);
    expect(form.has('emoji_name')).toBe(false);
  });

  it('fetchFile sends credentials to the client’s own server only', async () => {
    const { client, requests } = capturing();
    await client.fetchFile('/user_uploads/2/ab/notes.txt');
    await client.fetchFile('https://elsewhere.example.net/image.png');
    expect(requests.map((r) => [r.url, r.headers.has('authorization')])).toEqual([
      ['https://chat.example.com/user_uploads/2/ab/notes.txt', true],
      ['https://elsewhere.example.net/image.png', false],
    ]);
  });

  it('parameters are checked at compile time: a misspelled or missing one, or a wrong type, does not compile', async () => {
    const { client, requests } = capturing();
    const wrong = [
      // @ts-expect-error `contnt` is not a parameter, and `content` is missing.
      () => client.sendMessage({ type: 'stream', to: 'general', topic: 't', contnt: 'hi' }),
      // @ts-expect-error `type` is one of the API's message types.
      () => client.sendMessage({ type: 'channel-ish', to: 'general', content: 'hi' }),
      // @ts-expect-error num_before is a number.
      () => client.getMessages({ anchor: 'newest', num_before: 'five' }),
      // @ts-expect-error message_id (a path parameter) is required.
      () => client.addReaction({ emoji_name: 'smile' }),
    ];
    expect(wrong).toHaveLength(4);
    // Defaulted parameters may be left out; path parameters take numbers or text.
    await client.getMessages({ anchor: 'newest', num_before: 1, num_after: 0 });
    await client.addReaction({ message_id: '12', emoji_name: 'smile' });
    expect(requests).toHaveLength(2);
  });

  it('no credentials given: no Authorization header', async () => {
    const { client, requests } = capturing({});
    await client.getServerSettings();
    expect(requests[0]!.headers.has('authorization')).toBe(false);
  });
});
