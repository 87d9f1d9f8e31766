/**
 * The highest revision of each entry this tab has shown or saved, so an entry served again
 * at a LOWER revision (a server restoring an old row: a rollback to an older, still valid
 * ciphertext of the same entry and field, which the AAD alone cannot tell apart) is refused
 * instead of being shown as current.
 *
 * Limits, by design: the revision is the server's number and not authenticated, so a server
 * that serves the old ciphertext under the current (or a higher) revision is not caught;
 * and the memory lasts as long as the tab (a reload starts afresh). docs/security.md says so.
 *
 * Only revisions of entries that opened are noted: a number that came with undecryptable
 * data proves nothing and must not make the real entry look rolled back later.
 */
export class RevisionMemory {
  readonly #highest = new Map<string, number>();

  /** True when this tab already saw `id` at a higher revision. */
  isRollback(id: string, revision: number): boolean {
    const seen = this.#highest.get(id.toLowerCase());
    return seen !== undefined && revision < seen;
  }

  /**
   * Forgets every revision: only when the person chose to take the server's older copy of the
   * vault (its whole-vault check passed against it), whose entries are then not rollbacks.
   */
  forget(): void {
    this.#highest.clear();
  }

  /** Records that `id` opened at `revision`; the memory never goes down otherwise. */
  note(id: string, revision: number): void {
    const key = id.toLowerCase();
    const seen = this.#highest.get(key);
    if (seen === undefined || revision > seen) this.#highest.set(key, revision);
  }
}
