import { randomUUID } from 'node:crypto';
import { aesGcmEncrypt, formatCiphertext } from '@lockit/crypto';
import { vaultKeyOf, type TestAccount } from '@lockit/test-support';

const utf8 = (text: string) => new TextEncoder().encode(text);

/**
 * A folder name as a client would send it: a v1 ciphertext under the vault key, bound to the
 * folder id. The server checks only the format; the binding here is the test's own.
 */
export async function encryptFolderName(account: TestAccount, id: string, name: string): Promise<string> {
  const iv = globalThis.crypto.getRandomValues(new Uint8Array(12));
  return formatCiphertext(iv, await aesGcmEncrypt(await vaultKeyOf(account), iv, utf8(name), utf8(`lockit-test/folder|${id}`)));
}

/** The body of POST /api/folders. */
export async function newFolder(account: TestAccount, name: string, id: string = randomUUID()) {
  return { id, name: await encryptFolderName(account, id, name) };
}
