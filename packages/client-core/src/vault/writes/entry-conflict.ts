import type { EntryWire } from '@lockit/contract';
import type { EntryDraft } from '../vault-entry';
import type { Conflict, EntryWrites, Gone, Saved } from './entry-writes';

/**
 * How a conflict is settled.
 * - mine: save my version on top of theirs (theirs then lands in history on the server);
 * - theirs: keep theirs (my version is saved into history first, see EntryConflictResolution);
 * - merge: save `draft`, picked field by field from both;
 * - cancel: do nothing now (an edit form keeps what was typed).
 * For a delete that met a newer version, 'mine' moves it to Trash anyway, 'theirs' and
 * 'cancel' keep it.
 */
export type ConflictChoice = { kind: 'mine' } | { kind: 'theirs' } | { kind: 'merge'; draft: EntryDraft } | { kind: 'cancel' };

/** A write that met a newer version: what the person wanted, and the version saved elsewhere, opened. */
export interface EntryConflictSides {
  /** 'save': an edit (or a restored version) met a newer version; 'delete': a move to Trash did. */
  kind: 'save' | 'delete';
  id: string;
  /** The person's version; null for a delete. */
  mine: EntryDraft | null;
  /** The revision of the version saved elsewhere, and its content. */
  theirsRevision: number;
  theirsDraft: EntryDraft;
}

/**
 * What a choice did: nothing written (kept), the last write's answer, yet another newer version
 * (a new conflict to show), the entry gone meanwhile (a delete), or an answer to my own write
 * that does not open (`opened` said so; shown as damaged, not as data).
 */
export type ChoiceOutcome = { kind: 'kept' } | Saved | Conflict | Gone | { kind: 'unreadable'; wire: EntryWire };

/**
 * Settles one conflict by the person's choice, with nothing lost: "Use theirs" saves mine first
 * and theirs again on top of it, so that BOTH versions are in the history (the server keeps the
 * version each write replaces) and the current version is theirs, unchanged. Once mine is
 * saved, a retry after a failure only puts theirs back, on the revision mine got.
 *
 * `opened(wire)` settles an intermediate answer on the caller's side (its list shows mine until
 * theirs is back on top) and says whether it opened.
 */
export class EntryConflictResolution {
  #mineSavedAs: number | null = null;

  constructor(
    private readonly writes: EntryWrites,
    readonly sides: EntryConflictSides,
    private readonly opened: (wire: EntryWire) => Promise<boolean> = async () => true,
  ) {}

  /** Carries out `choice`; rejects as the writes do (network, refused, a draft that cannot be sealed). */
  async choose(choice: ConflictChoice): Promise<ChoiceOutcome> {
    const { kind, id, mine, theirsRevision, theirsDraft } = this.sides;
    if (choice.kind === 'cancel' || (kind === 'delete' && choice.kind === 'theirs')) return { kind: 'kept' };
    if (kind === 'delete') return this.writes.trash(id, theirsRevision);
    if (choice.kind === 'merge') return this.writes.update(id, theirsRevision, choice.draft);
    if (choice.kind === 'mine' || mine === null) return this.writes.update(id, theirsRevision, mine ?? theirsDraft);
    if (this.#mineSavedAs === null) {
      const first = await this.writes.update(id, theirsRevision, mine);
      if (first.kind === 'conflict') return first;
      if (!(await this.opened(first.wire))) return { kind: 'unreadable', wire: first.wire };
      this.#mineSavedAs = first.wire.revision;
    }
    return this.writes.update(id, this.#mineSavedAs, theirsDraft);
  }
}
