import { addEntryRequestSchema } from '@lockit/contract';
import { z } from 'zod';
import type { AccountRef } from '../device-memory/account-ref';
import type { SealedEntry } from '../vault/seal-entry';

/**
 * One change of an entry made while the server could not be reached, kept on the device until
 * it is sent: what the online write would have sent, sealed the same way (sealEntry), and the
 * revision it was based on, so the server still compares and answers 409 when it moved on.
 *
 * Security invariant: only ciphertexts, ids, revisions and times; never a plaintext field.
 * `sealed` holds exactly the wire fields of the online write (each bound to the entry id).
 */
export type PendingWrite = PendingWriteBase &
  (
    | { kind: 'add'; sealed: SealedEntry }
    | { kind: 'update'; revision: number; sealed: SealedEntry }
    | { kind: 'trash'; revision: number; trashedAt: number }
    | { kind: 'restore'; revision: number }
  );

interface PendingWriteBase {
  v: 1;
  account: AccountRef;
  /** Order in the queue: writes are sent by ascending `seq`. */
  seq: number;
  /** The entry the write changes. */
  id: string;
  /** When it was queued (ms). */
  queuedAt: number;
}

/**
 * Where a platform keeps the queue (IndexedDB in a page). It stores and returns what the core
 * hands it; the core checks each record it reads (parsePendingWrites) and skips anything else.
 */
export interface PendingWriteStore {
  list(account: AccountRef): Promise<unknown[]>;
  put(write: PendingWrite): Promise<void>;
  remove(account: AccountRef, seq: number): Promise<void>;
  /** Every write of the account (logout). */
  clear(account: AccountRef): Promise<void>;
}

// The add request's schema: each field a ciphertext in the versioned format, as the server
// checks it, so no plaintext passes here either.
const sealedSchema = addEntryRequestSchema
  .refine((body) => typeof body.overview === 'string')
  .transform((body): SealedEntry => ({
    id: body.id,
    serviceName: body.serviceName,
    username: body.username,
    password: body.password,
    url: body.url ?? null,
    notes: body.notes ?? null,
    overview: body.overview ?? '',
    details: body.details ?? null,
  }));
const base = {
  v: z.literal(1),
  account: z.string(),
  seq: z.number().int().nonnegative(),
  id: z.string(),
  queuedAt: z.number().int().nonnegative(),
};
const revision = z.number().int().min(1);
const pendingWriteSchema = z.discriminatedUnion('kind', [
  z.object({ ...base, kind: z.literal('add'), sealed: sealedSchema }),
  z.object({ ...base, kind: z.literal('update'), revision, sealed: sealedSchema }),
  z.object({ ...base, kind: z.literal('trash'), revision, trashedAt: z.number().int().nonnegative() }),
  z.object({ ...base, kind: z.literal('restore'), revision }),
]);

/**
 * The account's queued writes in the order they are sent. A record that is not a write this
 * version queued (damaged, another account's, a sealed entry for another id) is left out.
 */
export async function readPendingWrites(store: PendingWriteStore, account: AccountRef): Promise<PendingWrite[]> {
  const writes: PendingWrite[] = [];
  for (const stored of await store.list(account)) {
    const parsed = pendingWriteSchema.safeParse(stored);
    if (!parsed.success || parsed.data.account !== account) continue;
    const write = parsed.data as PendingWrite;
    if ('sealed' in write && write.sealed.id !== write.id) continue;
    writes.push(write);
  }
  return writes.sort((a, b) => a.seq - b.seq);
}

/** In memory only: for Node's tests and a platform that keeps no queue on disk. */
export class MemoryPendingWriteStore implements PendingWriteStore {
  readonly #writes = new Map<string, unknown>();

  list(account: AccountRef): Promise<unknown[]> {
    const prefix = `${account}|`;
    return Promise.resolve([...this.#writes].filter(([key]) => key.startsWith(prefix)).map(([, w]) => structuredClone(w)));
  }

  put(write: PendingWrite): Promise<void> {
    this.#writes.set(`${write.account}|${write.seq}`, structuredClone(write));
    return Promise.resolve();
  }

  remove(account: AccountRef, seq: number): Promise<void> {
    this.#writes.delete(`${account}|${seq}`);
    return Promise.resolve();
  }

  clear(account: AccountRef): Promise<void> {
    for (const key of this.#writes.keys()) if (key.startsWith(`${account}|`)) this.#writes.delete(key);
    return Promise.resolve();
  }
}
