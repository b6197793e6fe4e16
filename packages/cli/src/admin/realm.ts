/** `--realm`: which realm of the installation a management command works on. */
import { type Ctx, listRealms, type Realm } from '@teamchat/core';
import { option } from '../command-spec.js';
import { CliError } from '../data-dir.js';

export const realmOption = option({
  value: 'REALM',
  description: 'the realm: its subdomain, its URL or its ID, tried in that order (see `teamchat list-realms`)',
  defaultText: 'the only realm',
});

/** The realm `--realm` names; without it, the installation's only realm. */
export async function selectRealm(ctx: Ctx, wanted: string | undefined): Promise<Realm> {
  const realms = await listRealms(ctx);
  if (realms.length === 0) throw new CliError('the installation has no realm yet: run `teamchat init` or `teamchat serve` first');
  if (wanted === undefined) {
    if (realms.length === 1) return realms[0]!;
    throw new CliError(`--realm is required: this installation has ${realms.length} realms (${realms.map(describeRealm).join(', ')})`);
  }
  const trimmed = wanted.trim().toLowerCase();
  const realm =
    realms.find((r) => r.subdomain.toLowerCase() === trimmed) ??
    realms.find((r) => r.url.toLowerCase() === trimmed.replace(/\/+$/, '')) ??
    (/^\d+$/.test(trimmed) ? realms.find((r) => r.id === Number(trimmed)) : undefined);
  if (!realm) throw new CliError(`--realm: no realm '${wanted}' (realms: ${realms.map(describeRealm).join(', ')})`);
  return realm;
}

/** `2 sales https://sales.chat.example.com`: how messages name a realm. */
export const describeRealm = (realm: Realm) => `${realm.id} ${realm.subdomain === '' ? '(root)' : realm.subdomain} ${realm.url}`;
