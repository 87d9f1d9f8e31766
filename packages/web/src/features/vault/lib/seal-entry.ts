import type { AddEntryRequest } from '@lockit/contract';
import { decryptField, encryptField } from '@lockit/crypto';
import type { OpenItem } from './vault-item';

/** What the Add and Edit forms hold. Empty url or notes mean "none". */
export interface EntryDraft {
  serviceName: string;
  username: string;
  password: string;
  url: string;
  notes: string;
}

export type SealedEntry = Omit<AddEntryRequest, 'url' | 'notes'> & { url: string | null; notes: string | null };

/**
 * Encrypts every field of one entry under the vault key, bound to `id` (fresh IV each).
 * Security invariant: the result holds ciphertexts only; no plaintext field leaves here.
 */
export async function sealEntry(vaultKey: CryptoKey, id: string, draft: EntryDraft): Promise<SealedEntry> {
  const [serviceName, username, password, url, notes] = await Promise.all([
    encryptField(vaultKey, id, 'serviceName', draft.serviceName),
    encryptField(vaultKey, id, 'username', draft.username),
    encryptField(vaultKey, id, 'password', draft.password),
    draft.url === '' ? null : encryptField(vaultKey, id, 'url', draft.url),
    draft.notes === '' ? null : encryptField(vaultKey, id, 'notes', draft.notes),
  ]);
  return { id, serviceName, username, password, url, notes };
}

/** The body of an add: absent optional fields are left out. */
export function toAddRequest(sealed: SealedEntry): AddEntryRequest {
  const { url, notes, ...required } = sealed;
  return { ...required, ...(url === null ? {} : { url }), ...(notes === null ? {} : { notes }) };
}

/** The password of one entry, for reveal or copy. Throws FieldDecryptionError when damaged. */
export function openPassword(vaultKey: CryptoKey, item: OpenItem): Promise<string> {
  return decryptField(vaultKey, item.id, 'password', item.sealed.password);
}

/** What the Edit form starts from: the one entry's password and notes, decrypted now. */
export async function openDraft(vaultKey: CryptoKey, item: OpenItem): Promise<EntryDraft> {
  const [password, notes] = await Promise.all([
    openPassword(vaultKey, item),
    item.sealed.notes === null ? '' : decryptField(vaultKey, item.id, 'notes', item.sealed.notes),
  ]);
  return { serviceName: item.serviceName, username: item.username, password, url: item.url ?? '', notes };
}
