import { ok, RawJson } from '../../infra/http/endpoint.ts';

/**
 * Answers of the drive lists, kept per user *and drive revision*: every write to a user's items bumps
 * `users.drive_rev` (items.repository.ts), so an entry can never be stale — a new revision simply misses.
 * Bounded by bytes, least recently used out first. Each process has its own; the revision lives in the
 * database, so several processes stay correct.
 */
export function createListCache(maxBytes = 32 * 1024 * 1024) {
  const entries = new Map<string, string>();
  let bytes = 0;

  function get(key: string) {
    const v = entries.get(key);
    if (v !== undefined) {
      entries.delete(key);
      entries.set(key, v);
    }
    return v;
  }

  function set(key: string, json: string) {
    if (json.length > maxBytes / 4) return;
    entries.set(key, json);
    bytes += json.length;
    for (const [k, v] of entries) {
      if (bytes <= maxBytes) break;
      entries.delete(k);
      bytes -= v.length;
    }
  }

  return {
    /** The envelope for this user, revision, endpoint and request, computed by `load` when missing. */
    async answer(user: { id: string; drive_rev: number }, endpoint: string, data: unknown, load: () => Promise<unknown>): Promise<RawJson> {
      const key = `${user.id}\u0000${user.drive_rev}\u0000${endpoint}\u0000${JSON.stringify(data)}`;
      const hit = get(key);
      if (hit !== undefined) return new RawJson(hit);
      const json = JSON.stringify(ok(await load()));
      set(key, json);
      return new RawJson(json);
    },
    get size() {
      return entries.size;
    },
  };
}

export type ListCache = ReturnType<typeof createListCache>;
