/** A draft that cannot be saved as it is; the message is one sentence a person can act on. */
export class EntryDraftError extends Error {
  override readonly name = 'EntryDraftError';
}
