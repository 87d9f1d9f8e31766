import type { AddEntryRequest, UpdateEntryRequest } from '@lockit/contract';
import { sealEntryFields } from '@lockit/crypto';
import { checkEntryPlaintext, entryPlaintext } from './entry-plaintext';
import type { EntryDraft } from './vault-entry';

export type { EntryDraft } from './vault-entry';
export { EntryDraftError } from './entry-draft-error';

/** The wire fields of one sealed entry: ciphertexts only; null for a field it does not have. */
export interface SealedEntry {
  id: string;
  serviceName: string;
  username: string;
  password: string;
  url: string | null;
  notes: string | null;
  overview: string;
  details: string | null;
}

/**
 * Encrypts one entry in the item format under the vault key: every field bound to `id`, the
 * field and the whole field set (fresh IV each). Throws EntryDraftError, before any
 * encryption, for a draft past the contract's caps.
 * Security invariant: the result holds ciphertexts only; no plaintext field leaves here.
 */
export async function sealEntry(vaultKey: CryptoKey, id: string, draft: EntryDraft): Promise<SealedEntry> {
  const plain = entryPlaintext(draft);
  const { overview, details } = checkEntryPlaintext(plain);
  const sealed = await sealEntryFields(vaultKey, id, { ...plain, overview, details });
  return {
    id,
    serviceName: sealed.serviceName ?? '',
    username: sealed.username ?? '',
    password: sealed.password ?? '',
    url: sealed.url,
    notes: sealed.notes,
    overview: sealed.overview ?? '',
    details: sealed.details,
  };
}

/** The body of an add: absent optional fields are left out. */
export function toAddRequest(sealed: SealedEntry): AddEntryRequest {
  const request: AddEntryRequest = {
    id: sealed.id,
    serviceName: sealed.serviceName,
    username: sealed.username,
    password: sealed.password,
    overview: sealed.overview,
  };
  if (sealed.url !== null) request.url = sealed.url;
  if (sealed.notes !== null) request.notes = sealed.notes;
  if (sealed.details !== null) request.details = sealed.details;
  return request;
}

/**
 * The body of an update based on `revision`: every field named, absent ones as null, so the
 * server clears them and the stored field set is exactly the one the fields were sealed with.
 */
export function toUpdateRequest(sealed: SealedEntry, revision: number): UpdateEntryRequest {
  return { ...sealed, revision };
}
