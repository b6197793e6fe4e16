/**
 * The rest of a Zulip export that teamchat has a place for: default channels, allowed email
 * domains, linkifiers, code playgrounds, custom profile fields, and each user's topic
 * visibility, muted users, alert words and status.
 */
import type { Row } from '../database-handle.js';
import { flag, seconds } from './convert-people.js';
import type { ZulipRealmFile } from './zulip-export-types.js';

export function convertExtras(data: ZulipRealmFile, realmId: number, userIds: Set<number>, streamIds: Set<number>): Record<string, Row[]> {
  const byUser = <T extends { user_profile?: unknown }>(rows: T[] | undefined) => (rows ?? []).filter((r) => userIds.has(Number(r.user_profile)));
  const alertCounters = new Map<number, number>();
  const seenWords = new Set<string>();
  const fields = new Set((data.zerver_customprofilefield ?? []).map((f) => Number(f.id)));
  return {
    default_stream: (data.zerver_defaultstream ?? []).filter((d) => streamIds.has(Number(d.stream))).map((d) => ({ realm_id: realmId, stream_id: Number(d.stream) })),
    realm_domain: (data.zerver_realmdomain ?? []).map((d) => ({ id: Number(d.id), realm_id: realmId, domain: String(d.domain), allow_subdomains: flag(d.allow_subdomains) })),
    realm_linkifier: (data.zerver_realmfilter ?? []).map((f, index) => ({
      id: Number(f.id),
      realm_id: realmId,
      pattern: String(f.pattern),
      url_template: String(f.url_template ?? f.url_format_string ?? ''),
      example_input: null,
      reverse_template: null,
      alternative_url_templates: '[]',
      sort_order: Number(f.order ?? index),
    })),
    realm_playground: (data.zerver_realmplayground ?? []).map((p) => ({
      id: Number(p.id),
      realm_id: realmId,
      name: String(p.name),
      pygments_language: String(p.pygments_language),
      url_template: String(p.url_template ?? p.url_prefix ?? ''),
    })),
    custom_profile_field: (data.zerver_customprofilefield ?? []).map((f) => ({
      id: Number(f.id),
      realm_id: realmId,
      name: String(f.name),
      hint: String(f.hint ?? ''),
      type: Number(f.field_type ?? f.type ?? 1),
      field_data: typeof f.field_data === 'string' && f.field_data !== '' ? f.field_data : null,
      order: Number(f.order ?? 0),
      required: flag(f.required),
      editable_by_user: flag(f.editable_by_user ?? true),
      display_in_profile_summary: flag(f.display_in_profile_summary),
      use_for_user_matching: flag(f.use_for_user_matching),
    })),
    custom_profile_field_value: byUser(data.zerver_customprofilefieldvalue)
      .filter((v) => fields.has(Number(v.field)))
      .map((v) => ({ field_id: Number(v.field), user_id: Number(v.user_profile), value: String(v.value), rendered_value: typeof v.rendered_value === 'string' ? v.rendered_value : null })),
    user_topic: byUser(data.zerver_usertopic)
      .filter((t) => streamIds.has(Number(t.stream)) && [1, 2, 3].includes(Number(t.visibility_policy ?? 1)))
      .map((t) => ({
        realm_id: realmId,
        user_id: Number(t.user_profile),
        stream_id: Number(t.stream),
        topic: String(t.topic_name ?? ''),
        visibility_policy: Number(t.visibility_policy ?? 1),
        last_updated: seconds(t.last_updated),
      })),
    muted_user: byUser(data.zerver_muteduser)
      .filter((m) => userIds.has(Number(m.muted_user)) && m.muted_user !== m.user_profile)
      .map((m) => ({ id: Number(m.id), realm_id: realmId, user_id: Number(m.user_profile), muted_user_id: Number(m.muted_user), date_muted: seconds(m.date_muted) })),
    alert_word: byUser(data.zerver_alertword)
      .filter((w) => {
        const key = `${w.user_profile}:${String(w.word).toLowerCase()}`;
        if (seenWords.has(key)) return false;
        seenWords.add(key);
        return true;
      })
      .map((w) => {
        const userId = Number(w.user_profile);
        const next = (alertCounters.get(userId) ?? 0) + 1;
        alertCounters.set(userId, next);
        return { realm_id: realmId, user_id: userId, word: String(w.word), word_key: String(w.word).toLowerCase(), id: next };
      }),
    user_status: byUser(data.zerver_userstatus).map((s) => ({
      user_id: Number(s.user_profile),
      realm_id: realmId,
      status_text: String(s.status_text ?? ''),
      emoji_name: String(s.emoji_name ?? ''),
      emoji_code: String(s.emoji_code ?? ''),
      reaction_type: s.reaction_type === 'zulip_extra_emoji' ? 'service_extra_emoji' : String(s.reaction_type || 'unicode_emoji'),
      timestamp: seconds(s.timestamp),
    })),
  };
}
