/**
 * Values derived from a realm's own fields (its rendered description, the GET /server_settings
 * answer), computed once and kept per context. Each entry is keyed by the exact field values it
 * was computed from, compared on every use against the realm as just read: a realm changed by
 * any path (an action, the CLI, a test writing the store) is recomputed at once, and nothing
 * needs to be told to invalidate. One entry per realm and kind, so memory is bounded by the
 * number of realms.
 */
export class RealmMemo {
  readonly #entries = new Map<string, { key: readonly unknown[]; value: unknown }>();

  /**
   * The value of `kind` for realm `realmId`, computed by `compute` unless the entry kept was
   * computed from the same `key` (compared item by item with `===`).
   */
  get<T>(kind: string, realmId: number, key: readonly unknown[], compute: () => T): T {
    const slot = `${kind}:${realmId}`;
    const kept = this.#entries.get(slot);
    if (kept && sameKey(kept.key, key)) return kept.value as T;
    const value = compute();
    this.#entries.set(slot, { key, value });
    return value;
  }
}

function sameKey(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
