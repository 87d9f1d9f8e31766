import { createHash, hash } from 'node:crypto';

/**
 * Room for the serialized lists of the most recently used vaults (about 50 KB per 100 legacy
 * entries, about 0.8 MB per 1,000 items of the item format). Half of it is the largest list
 * kept, so a 20,000-item vault (about 16 MB) is kept: with a quarter of 64 MiB it was not,
 * and a tab listing it in a loop re-read and re-serialized it for every request.
 */
export const VAULT_LIST_CACHE_BYTES = 64 * 1024 * 1024;

/** One vault's list answer, ready to send. */
export interface VaultListAnswer {
  /** The JSON bytes: sending a Buffer skips encoding 50 KB on every hit. */
  body: Buffer;
  /**
   * A strong ETag: the SHA-256 of `body`, folded with `vaultState` when there is one (it is
   * sent beside the body, in a header). Derived from what is sent, not from the user or the
   * revision, so a match means the client holds exactly these bytes and this state, whoever
   * sent it: a folder write changes the state but not the entries' bytes.
   */
  etag: string;
  /** The vault state stored with the vault the body shows (decision 0053); null: none. */
  vaultState: string | null;
}

/** The bytes of an answer as they were made, in pieces, with the SHA-256 of them all. */
export interface BuiltList {
  body: Buffer;
  sha256: string;
  /** The vault state the body matches; left out: none. */
  vaultState?: string | null;
}

/** The ETag of an answer: see VaultListAnswer. Without a state it is the bytes' SHA-256 alone. */
export function listEtag(bodySha256: string, vaultState: string | null): string {
  return `"${vaultState === null ? bodySha256 : hash('sha256', `${bodySha256}|${vaultState}`, 'base64url')}"`;
}

/**
 * The serialized list answer of recently read vaults, each valid for one vault revision.
 *
 * Invariants: an answer is stored under the revision read (with the session) BEFORE the
 * entries were read, and every entry write bumps the revision in its own transaction, so a
 * stored answer is never older than the revision it is filed under, and any write makes it
 * unreachable, in this process and in every other one sharing the database. It holds only
 * what the database holds (ciphertexts), keyed by user id; least recently used goes first.
 * One build at a time per (user, revision): concurrent requests for a list being built wait
 * for that build instead of each reading and serializing the vault again.
 */
export function createVaultListCache(maxBytes = VAULT_LIST_CACHE_BYTES) {
  const answers = new Map<string, { revision: number; answer: VaultListAnswer }>();
  const building = new Map<string, Promise<VaultListAnswer>>();
  let bytes = 0;

  const forget = (userId: string) => {
    const old = answers.get(userId);
    if (!old) return;
    bytes -= old.answer.body.length;
    answers.delete(userId);
  };

  const get = (userId: string, revision: number): VaultListAnswer | undefined => {
    const hit = answers.get(userId);
    if (!hit || hit.revision !== revision) return undefined;
    answers.delete(userId); // re-inserted last: Map order is the recency order
    answers.set(userId, hit);
    return hit.answer;
  };

  const keep = (userId: string, revision: number, answer: VaultListAnswer): VaultListAnswer => {
    forget(userId);
    if (answer.body.length > maxBytes / 2) return answer; // one huge vault must not flush everyone else's
    answers.set(userId, { revision, answer });
    bytes += answer.body.length;
    for (const [oldest] of answers) {
      if (bytes <= maxBytes) break;
      forget(oldest);
    }
    return answer;
  };

  return {
    get,

    /** Files `body` (and the state it matches) under the user's revision and returns it with its ETag. */
    set(userId: string, revision: number, body: Buffer, vaultState: string | null = null): VaultListAnswer {
      return keep(userId, revision, { body, etag: listEtag(hash('sha256', body, 'base64url'), vaultState), vaultState });
    },

    /**
     * The answer for this revision: from memory, from a build already under way, or from
     * `build` (whose result is kept when it fits).
     */
    async getOrBuild(userId: string, revision: number, build: () => Promise<BuiltList>): Promise<VaultListAnswer> {
      const hit = get(userId, revision);
      if (hit) return hit;
      const key = `${userId}:${revision}`;
      let pending = building.get(key);
      if (!pending) {
        pending = build()
          .then((built) => {
            const vaultState = built.vaultState ?? null;
            return keep(userId, revision, { body: built.body, etag: listEtag(built.sha256, vaultState), vaultState });
          })
          .finally(() => building.delete(key));
        building.set(key, pending);
      }
      return pending;
    },

    /** Bytes held, for tests. */
    get size(): number {
      return bytes;
    },
  };
}

export type VaultListCache = ReturnType<typeof createVaultListCache>;

/** A SHA-256 fed piece by piece, giving the same base64url digest as `hash` of the whole. */
export function pieceHasher() {
  const sha = createHash('sha256');
  return {
    update: (piece: Buffer) => sha.update(piece),
    digest: () => sha.digest('base64url'),
  };
}
