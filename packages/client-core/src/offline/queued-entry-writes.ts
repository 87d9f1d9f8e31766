import type { EntryWire } from '@lockit/contract';
import { newEntryId } from '@lockit/crypto';
import { ApiError, NetworkError } from '../http/api-errors';
import { openVersionDraft } from '../vault/open-draft';
import { sealEntry, type SealedEntry } from '../vault/seal-entry';
import type { EntryDraft } from '../vault/vault-entry';
import type { EntryWrites, SaveResult, Saved, TrashResult } from '../vault/writes/entry-writes';
import type { EntryWriteQueue, QueuedChange } from './entry-write-queue';
import type { PendingWrite } from './pending-writes';

/** The server could not be reached: the write waits in the queue, sealed, and is sent later. */
export type Queued = { kind: 'queued'; write: PendingWrite };

/** What one queued write came to when it was sent. */
export type ReplayOutcome =
  /** Stored; the write left the queue. */
  | { kind: 'saved'; write: PendingWrite; wire: EntryWire }
  /**
   * The server's revision moved on (409): nothing was overwritten, and the write STAYS queued
   * until the caller settles it (drop) once the person chose; `mine` is its content, opened
   * (null for a move to or from Trash), `current` the server's version.
   */
  | { kind: 'conflict'; write: PendingWrite; current: EntryWire; mine: EntryDraft | null }
  /** Refused for good (a 4xx other than 409: the entry is gone, the body refused): it left the queue. */
  | { kind: 'refused'; write: PendingWrite; error: ApiError };

export interface ReplayReport {
  outcomes: ReplayOutcome[];
  /** Why sending stopped before the end (the server unreachable again, a 5xx, a refused vault check); null when it did not. */
  stopped: unknown;
  /** Writes still queued (the stopped ones, those behind them, conflicts not settled yet). */
  left: number;
}

/**
 * An entry's writes that still work with the server unreachable: each is sealed once (sealEntry,
 * exactly as the online write), sent through EntryWrites, and when no answer comes at all
 * (NetworkError) the same sealed write is queued with the revision it was based on. `replay`
 * sends the queue through the same EntryWrites, so each write is compared on its revision and
 * carries the next vault state like any other.
 *
 * Security invariants:
 * - Nothing plaintext is queued: the queue gets the sealed entry the online write would send.
 * - A queued write is never forced: a newer version on the server comes back as a conflict and
 *   the write stays queued until the person settles it, so neither side is lost.
 * - While an entry has writes queued, its next writes queue behind them (order kept per entry).
 */
export class QueuedEntryWrites {
  #chain: Promise<unknown> = Promise.resolve();

  constructor(
    readonly writes: EntryWrites,
    readonly queue: EntryWriteQueue,
    private readonly vaultKey: CryptoKey,
    private readonly now: () => number = Date.now,
  ) {}

  add(draft: EntryDraft, id: string = newEntryId()): Promise<(Saved | Queued) & { id: string }> {
    return this.#serial(async () => {
      const sealed = await sealEntry(this.vaultKey, id, draft);
      const result = await this.#orQueue(id, () => this.writes.addSealed(sealed, draft.serviceName), { kind: 'add', sealed });
      return { ...result, id };
    });
  }

  update(id: string, revision: number, draft: EntryDraft): Promise<SaveResult | Queued> {
    return this.#serial(async () => {
      const sealed = await sealEntry(this.vaultKey, id, draft);
      const change: QueuedChange = { kind: 'update', revision, sealed };
      return this.#orQueue(id, () => this.writes.updateSealed(sealed, revision, draft.serviceName), change);
    });
  }

  trash(id: string, revision: number): Promise<TrashResult | Queued> {
    return this.#serial(() => {
      const trashedAt = this.now();
      const change: QueuedChange = { kind: 'trash', id, revision, trashedAt };
      return this.#orQueue(id, () => this.writes.trash(id, revision, trashedAt), change);
    });
  }

  restore(id: string, revision: number): Promise<SaveResult | Queued> {
    return this.#serial(() => this.#orQueue(id, () => this.writes.restore(id, revision), { kind: 'restore', id, revision }));
  }

  /**
   * Sends the queued writes in order, each on the revision it was based on. Stops at the first
   * write that gets no answer or an error that is not the write's own (it and those after it
   * stay queued); an entry whose write met a conflict, or is `held` (a conflict being shown),
   * has its later writes kept for the next replay.
   */
  replay(held: ReadonlySet<string> = new Set()): Promise<ReplayReport> {
    return this.#serial(async () => {
      const outcomes: ReplayOutcome[] = [];
      const blocked = new Set(held);
      const writes = await this.queue.list();
      let left = 0;
      let stopped: unknown = null;
      for (const write of writes) {
        if (stopped !== null || blocked.has(write.id)) {
          left++;
          continue;
        }
        try {
          const outcome = await this.#send(write);
          outcomes.push(outcome);
          if (outcome.kind === 'conflict') {
            blocked.add(write.id);
            left++;
          } else await this.queue.drop(write);
        } catch (error) {
          if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 401) {
            outcomes.push({ kind: 'refused', write, error });
            await this.queue.drop(write);
          } else {
            stopped = error;
            left++;
          }
        }
      }
      return { outcomes, stopped, left };
    });
  }

  async #send(write: PendingWrite): Promise<ReplayOutcome> {
    switch (write.kind) {
      case 'add': {
        const mine = await this.#open(write.sealed, 0);
        const saved = await this.writes.addSealed(write.sealed, mine?.serviceName ?? '');
        return { kind: 'saved', write, wire: saved.wire };
      }
      case 'update': {
        const mine = await this.#open(write.sealed, write.revision);
        const result = await this.writes.updateSealed(write.sealed, write.revision, mine?.serviceName ?? '');
        return result.kind === 'saved'
          ? { kind: 'saved', write, wire: result.wire }
          : { kind: 'conflict', write, current: result.current, mine };
      }
      case 'trash': {
        const result = await this.writes.trash(write.id, write.revision, write.trashedAt);
        if (result.kind === 'gone') return { kind: 'refused', write, error: result.error };
        return result.kind === 'saved'
          ? { kind: 'saved', write, wire: result.wire }
          : { kind: 'conflict', write, current: result.current, mine: null };
      }
      case 'restore': {
        const result = await this.writes.restore(write.id, write.revision);
        return result.kind === 'saved'
          ? { kind: 'saved', write, wire: result.wire }
          : { kind: 'conflict', write, current: result.current, mine: null };
      }
    }
  }

  /** The queued content, opened (what "mine" shows in a conflict); null when it does not open. */
  #open(sealed: SealedEntry, revision: number): Promise<EntryDraft | null> {
    return openVersionDraft(this.vaultKey, sealed.id, { ...sealed, revision, savedAt: '', replacedAt: '' }).catch(() => null);
  }

  /** Sends now, unless the entry already waits in the queue; no answer at all queues the write. */
  async #orQueue<T>(id: string, send: () => Promise<T>, change: QueuedChange): Promise<T | Queued> {
    const waiting = (await this.queue.list()).some((write) => write.id === id);
    if (!waiting) {
      try {
        return await send();
      } catch (error) {
        if (!(error instanceof NetworkError)) throw error;
      }
    }
    return { kind: 'queued', write: await this.queue.push(change) };
  }

  #serial<T>(run: () => Promise<T>): Promise<T> {
    const next = this.#chain.then(run, run);
    this.#chain = next.catch(() => undefined);
    return next;
  }
}
