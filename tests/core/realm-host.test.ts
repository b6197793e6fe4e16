import { expect, it } from 'vitest';
import { realmHostname } from '../../packages/core/src/format/realm-host.js';

it('gives the URL host name, the same on every call and past the memo bound', () => {
  expect(realmHostname('http://Chat.Example.com:9991')).toBe('chat.example.com');
  for (let i = 0; i < 300; i++) expect(realmHostname(`https://r${i}.example.org`)).toBe(`r${i}.example.org`);
  expect(realmHostname('http://Chat.Example.com:9991')).toBe('chat.example.com');
  expect(() => realmHostname('not a url')).toThrow();
});
