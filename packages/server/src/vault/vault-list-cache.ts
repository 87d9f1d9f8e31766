import { hash } from 'node:crypto';

/**
 * Room for the serialized lists of the most recently used vaults (about 50 KB per 100 legacy
 * entries, about 0.9 MB per 1,000 items of the item format). A quarter of it is the largest
 * list kept, so a 10,000-item vault (9.3 MB) is kept: at 32 MiB it was re-read and serialized
 * on every fetch, 150-350 ms before its first byte.
 */
export const VAULT_LIST_CACHE_BYTES = 64 * 1024 * 1024;

/** One vault's list answer, ready to send. */
export interface VaultListAnswer {
  /** The JSON bytes: sending a Buffer skips encoding 50 KB on every hit. */
  body: Buffer;
  /**
   * A strong ETag: the SHA-256 of `body`. Derived from the bytes, not from the user or the
   * revision, so a match means the client holds exactly these bytes, whoever sent it.
   */
  etag: string;
}

/**
 * The serialized list answer of recently read vaults, each valid for one vault revision.
 *
 * Invariants: an answer is stored under the revision read (with the session) BEFORE the
 * entries were read, and every entry write bumps the revision in its own transaction, so a
 * stored answer is never older than the revision it is filed under, and any write makes it
 * unreachable, in this process and in every other one sharing the database. It holds only
 * what the database holds (ciphertexts), keyed by user id; least recently used goes first.
 */
export function createVaultListCache(maxBytes = VAULT_LIST_CACHE_BYTES) {
  const answers = new Map<string, { revision: number; answer: VaultListAnswer }>();
  let bytes = 0;

  const forget = (userId: string) => {
    const old = answers.get(userId);
    if (!old) return;
    bytes -= old.answer.body.length;
    answers.delete(userId);
  };

  return {
    get(userId: string, revision: number): VaultListAnswer | undefined {
      const hit = answers.get(userId);
      if (!hit || hit.revision !== revision) return undefined;
      answers.delete(userId); // re-inserted last: Map order is the recency order
      answers.set(userId, hit);
      return hit.answer;
    },

    /** Files `body` under the user's revision and returns it with its ETag. */
    set(userId: string, revision: number, body: Buffer): VaultListAnswer {
      const answer = { body, etag: `"${hash('sha256', body, 'base64url')}"` };
      forget(userId);
      if (body.length > maxBytes / 4) return answer; // one huge vault must not flush everyone else's
      answers.set(userId, { revision, answer });
      bytes += body.length;
      for (const [oldest] of answers) {
        if (bytes <= maxBytes) break;
        forget(oldest);
      }
      return answer;
    },

    /** Bytes held, for tests. */
    get size(): number {
      return bytes;
    },
  };
}

export type VaultListCache = ReturnType<typeof createVaultListCache>;
