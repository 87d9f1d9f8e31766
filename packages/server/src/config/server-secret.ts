import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

const SECRET_BYTES = 32;

/**
 * Reads <dataDir>/server-secret, creating it (32 random bytes, hex, mode 0600) on first start.
 * The secret keys the HMACs of verification codes, prelogin salts and device cookies: losing
 * it invalidates pending codes and device cookies (browsers count as new until their next
 * sign-in) and changes the fake salts of unknown names, nothing else.
 */
export async function loadOrCreateServerSecret(dataDir: string): Promise<Buffer> {
  const file = path.join(dataDir, 'server-secret');
  try {
    await mkdir(dataDir, { recursive: true });
    // 'wx' fails if another process created it first; then we read theirs.
    await writeFile(file, randomBytes(SECRET_BYTES).toString('hex') + '\n', { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
      throw new Error(`${file} could not be created: ${(error as Error).message}`);
    }
  }
  const text = (
    await readFile(file, 'utf8').catch((error: Error) => {
      throw new Error(`${file} could not be read: ${error.message}`);
    })
  ).trim();
  if (!/^[0-9a-f]{64}$/i.test(text)) {
    throw new Error(`${file} is damaged (expected 64 hex characters); delete it to make a new one`);
  }
  return Buffer.from(text, 'hex');
}
