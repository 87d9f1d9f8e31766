import type { EntryWire } from '@lockit/contract';
import type { ConflictChoice, EntryConflict } from './entry-action-types';
import { CURRENT_DAMAGED, KEPT_NEWER_VERSION, NOT_SAVED_AFTER_CONFLICT } from './action-messages';
import { changedParts } from './draft-diff';
import type { EntryWrites, WriteOutcome, WriteWords } from './entry-writes';
import { openDraft as openEntryDraft } from '@lockit/client-core';
import type { ActionResult, EntryDraft, OpenEntry } from '@lockit/client-core';

export type ConflictFlow = ReturnType<typeof createConflictFlow>;

export interface ConflictFlowDeps {
  vaultKey: CryptoKey;
  writes: EntryWrites;
  /** Shows a conflict (ConflictDialog), or none. */
  setConflict: (conflict: EntryConflict | null) => void;
}

/** A write that met a newer version (409): shown to the person until a choice settles it. */
export function createConflictFlow({ vaultKey, writes, setConflict }: ConflictFlowDeps) {
  const { markDamaged, settleWire, writeDraft, trashAt } = writes;

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

    // "Use theirs" saves mine first and theirs again on top of it, so that BOTH versions are
    // in the history (the server keeps the version each write replaces): nothing the person
    // typed is lost, and the current version is theirs, unchanged. Once mine is saved, a
    // retry after a failure only puts theirs back, on the revision mine got.
    let mineSavedAs: number | null = null;

    const resolve = async (choice: ConflictChoice): Promise<ActionResult> => {
      if (choice.kind === 'cancel' || (kind === 'delete' && choice.kind === 'theirs')) {
        setConflict(null);
        settle({ ok: false, message: kind === 'save' ? NOT_SAVED_AFTER_CONFLICT : KEPT_NEWER_VERSION });
        return { ok: true };
      }
      let outcome: WriteOutcome;
      if (kind === 'delete') outcome = await trashAt(theirs.id, theirs.revision);
      else if (choice.kind === 'merge') outcome = await writeDraft(theirs.id, theirs.revision, choice.draft, words);
      else if (choice.kind === 'mine' || mine === null)
        outcome = await writeDraft(theirs.id, theirs.revision, mine ?? theirsDraft, words);
      else {
        let failed: WriteOutcome | null = null;
        if (mineSavedAs === null) {
          const first = await writeDraft(theirs.id, theirs.revision, mine, words);
          if (!('ok' in first) || !first.ok) failed = first;
          else if (first.entry.status !== 'open') failed = { ok: false, message: CURRENT_DAMAGED };
          else mineSavedAs = first.entry.revision;
        }
        outcome = failed ?? (await writeDraft(theirs.id, mineSavedAs ?? theirs.revision, theirsDraft, words));
      }
      if ('conflict' in outcome) {
        await present(kind, mine, outcome.conflict, settle, words, base);
        return { ok: true };
      }
      if (!outcome.ok) return outcome;
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
