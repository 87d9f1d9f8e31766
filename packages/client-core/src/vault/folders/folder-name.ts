import { FOLDER_NAME_LIMIT, folderSchema } from '@lockit/contract';
import { decryptField, encryptField } from '@lockit/crypto';
import type { OpenFolder } from '../vault-entry';

/**
 * A folder name is one AES-GCM field under the vault key, sealed with the entry fields' v1
 * associated data over a namespace of its own: `lockit/v1/entry|folder:<folder id>|serviceName`.
 * Entry ids are bare UUIDs, so no entry field has that associated data: a folder name can
 * never be passed off as an entry field (or the reverse), nor moved to another folder. This
 * needs nothing new in @lockit/crypto. What it does not catch, like any single field: a server
 * serving an older name of the same folder. The vault seals and opens names, a key rotation
 * re-seals them, and both must use this one binding.
 */
const folderAadId = (folderId: string) => `folder:${folderId}`;

export function sealFolderName(vaultKey: CryptoKey, folderId: string, name: string): Promise<string> {
  return encryptField(vaultKey, folderAadId(folderId), 'serviceName', name);
}

/** The folder's name; throws FieldDecryptionError when it does not open under `vaultKey` for this folder. */
export function openFolderName(vaultKey: CryptoKey, folderId: string, ciphertext: string): Promise<string> {
  return decryptField(vaultKey, folderAadId(folderId), 'serviceName', ciphertext);
}

/** A folder from the wire with its name decrypted, or null when it is malformed or does not decrypt. */
export async function openFolder(vaultKey: CryptoKey, raw: unknown): Promise<OpenFolder | null> {
  const parsed = folderSchema.safeParse(raw);
  if (!parsed.success) return null;
  const { id, name, revision } = parsed.data;
  try {
    return { id, name: await openFolderName(vaultKey, id, name), revision };
  } catch {
    return null;
  }
}

/** Opens every folder; those that do not open are left out (`onDamaged` counts them). */
export async function openFolders(
  vaultKey: CryptoKey,
  raw: readonly unknown[],
  onDamaged?: (count: number) => void,
): Promise<OpenFolder[]> {
  const opened = await Promise.all(raw.map((folder) => openFolder(vaultKey, folder)));
  const folders = opened.filter((folder) => folder !== null);
  if (folders.length < raw.length) onDamaged?.(raw.length - folders.length);
  return folders;
}

/**
 * A folder name as typed, checked: trimmed, "/" separating nesting levels with no empty level
 * ("Work/Banking", not "Work//Banking" or "/Work"). Returns the name to save, or a sentence
 * saying what to change.
 */
export function checkFolderName(typed: string): { ok: true; name: string } | { ok: false; message: string } {
  const name = typed
    .split('/')
    .map((part) => part.trim())
    .join('/');
  if (name === '') return { ok: false, message: 'Enter a folder name.' };
  if (name.split('/').some((part) => part === ''))
    return { ok: false, message: 'A folder name cannot have an empty part between slashes.' };
  if (name.length > FOLDER_NAME_LIMIT)
    return { ok: false, message: `A folder name can be at most ${FOLDER_NAME_LIMIT} characters.` };
  return { ok: true, name };
}
