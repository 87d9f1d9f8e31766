import { FOLDER_NAME_LIMIT, folderSchema } from '@lockit/contract';
import { openFolderName } from '@/lib/folder-name-seal';
import type { OpenFolder } from '@lockit/client-core';

/** Sealing and opening a name: one binding, shared with the key rotation (lib/folder-name-seal.ts). */
export { sealFolderName } from '@/lib/folder-name-seal';

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
