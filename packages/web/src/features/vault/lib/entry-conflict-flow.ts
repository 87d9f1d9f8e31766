import type { EntryWire } from '@lockit/contract';
import type { ConflictChoice, EntryConflict } from './entry-action-types';
import { logFailure } from '@/lib/log';
import { CURRENT_DAMAGED, failureMessage, KEPT_NEWER_VERSION, NOT_SAVED_AFTER_CONFLICT } from './action-messages';
import type { EntryWrites, WriteWords } from './entry-writes';
import { changedParts, EntryConflictResolution, openDraft as openEntryDraft } from '@lockit/client-core';
import type { ActionResult, ChoiceOutcome, EntryDraft, OpenEntry } from '@lockit/client-core';

export type ConflictFlow = ReturnType<typeof createConflictFlow>;

export interface ConflictFlowDeps {
  vaultKey: CryptoKey;
  writes: EntryWrites;
  /** Shows a conflict (ConflictDialog), or none. */
  setConflict: (conflict: EntryConflict | null) => void;
}

/** A write that met a newer version (409): shown to the person until a choice settles it. */
export function createConflictFlow({ vaultKey, writes, setConflict }: ConflictFlowDeps) {
  const { core, failed, markDamaged, settleWire, writeDraft } = writes;

  /**
   * Shows a conflict between `mine` and the current version, until it is settled; then
   * calls `settle` with what the write that met it resolves to. A choice that meets yet
   * another version shows that one instead.
   */
  const present = async (
    kind: EntryConflict['kind'],
    mine: EntryDraft | null,
    currentWire: EntryWire,
    settle: (result: ActionResult) => void,
    words: WriteWords,
    base?: OpenEntry,
  ): Promise<void> => {
    const theirs = await settleWire(currentWire);
    if (theirs?.status !== 'open') {
      setConflict(null);
      settle({ ok: false, message: CURRENT_DAMAGED });
      return;
    }
    let theirsDraft: EntryDraft;
    try {
      theirsDraft = await openEntryDraft(vaultKey, theirs);
    } catch {
      markDamaged(theirs);
      setConflict(null);
      settle({ ok: false, message: CURRENT_DAMAGED });
      return;
    }
    // A newer version with the very content the person started from (saved again in the
    // item format after unlock, moved to Trash and back elsewhere) is no conflict: mine goes
    // on top of it, as it would have on the version it was based on.
    if (kind === 'save' && mine !== null && base !== undefined && base.deletedAt === theirs.deletedAt) {
      const started = await openEntryDraft(vaultKey, base).catch(() => null);
      if (started !== null && changedParts(started, theirsDraft).length === 0) {
        const outcome = await writeDraft(theirs.id, theirs.revision, mine, words);
        if ('conflict' in outcome) await present(kind, mine, outcome.conflict, settle, words, base);
        else {
          setConflict(null);
          settle(outcome.ok ? { ok: true } : outcome);
        }
        return;
      }
    }

    // The choice's writes are the core's (EntryConflictResolution: "Use theirs" keeps both
    // versions in the history); each answer is put in this screen's state here.
    let mineSettled: 'open' | 'damaged' | 'none' = 'none';
    const resolution = new EntryConflictResolution(
      core,
      { kind, id: theirs.id, mine, theirsRevision: theirs.revision, theirsDraft },
      async (wire) => {
        const entry = await settleWire(wire);
        mineSettled = entry === null ? 'none' : entry.status === 'open' ? 'open' : 'damaged';
        return mineSettled === 'open';
      },
    );

    const resolve = async (choice: ConflictChoice): Promise<ActionResult> => {
      let outcome: ChoiceOutcome;
      try {
        outcome = await resolution.choose(choice);
      } catch (error) {
        return kind === 'delete'
          ? failed(error, { context: 'Deleting a password', what: 'move it to Trash' })
          : failed(error, words);
      }
      if (outcome.kind === 'kept') {
        setConflict(null);
        settle({ ok: false, message: kind === 'save' ? NOT_SAVED_AFTER_CONFLICT : KEPT_NEWER_VERSION });
        return { ok: true };
      }
      if (outcome.kind === 'conflict') {
        await present(kind, mine, outcome.current, settle, words, base);
        return { ok: true };
      }
      if (outcome.kind === 'unreadable') {
        return { ok: false, message: mineSettled === 'none' ? failureMessage(words.what, null, words) : CURRENT_DAMAGED };
      }
      if (outcome.kind === 'gone') {
        // It is already gone from the server, so it goes from the list too.
        logFailure('Deleting a password', outcome.error);
        writes.removed(theirs.id);
      } else {
        const entry = await settleWire(outcome.wire);
        if (!entry)
          return {
            ok: false,
            message: failureMessage(kind === 'delete' ? 'move it to Trash' : words.what, null, kind === 'delete' ? {} : words),
          };
      }
      setConflict(null);
      settle({ ok: true });
      return { ok: true };
    };

    setConflict({ kind, mine, theirs, theirsDraft, resolve });
  };

  /** `present`, as a promise of what the write that met the conflict resolves to. */
  const askAbout = (
    kind: EntryConflict['kind'],
    mine: EntryDraft | null,
    current: EntryWire,
    words: WriteWords,
    base?: OpenEntry,
  ) => new Promise<ActionResult>((settle) => void present(kind, mine, current, settle, words, base));

  return { present, askAbout };
}
