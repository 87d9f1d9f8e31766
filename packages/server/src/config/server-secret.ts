import { randomBytes } from 'node:crypto';
import { link, mkdir, open, readFile, unlink } from 'node:fs/promises';
import path from 'node:path';

const SECRET_BYTES = 32;

/**
 * Reads <dataDir>/server-secret, creating it (32 random bytes, hex, mode 0600) on first start.
 * The secret keys the HMACs of verification codes, prelogin salts and device cookies: losing
 * it invalidates pending codes and device cookies (browsers count as new until their next
 * sign-in) and changes the fake salts of unknown names, nothing else.
 *
 * Invariant: the file appears whole or not at all, and the first process to create it wins.
 * Processes that start at once (the server and lockit-admin, or two replicas) read the winner's.
 */
export async function loadOrCreateServerSecret(dataDir: string): Promise<Buffer> {
  const file = path.join(dataDir, 'server-secret');
  try {
    await mkdir(dataDir, { recursive: true });
    await createWhole(file, randomBytes(SECRET_BYTES).toString('hex') + '\n');
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

/**
 * Creates `file` holding `text`, or throws EEXIST when it already exists. Written under a name
 * of its own and synced first, then linked into place: link() neither replaces an existing file
 * nor shows a partly written one, where open('wx') then write would show an empty file between.
 */
async function createWhole(file: string, text: string): Promise<void> {
  const draft = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const handle = await open(draft, 'wx', 0o600);
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await link(draft, file);
  } finally {
    await unlink(draft).catch(() => undefined);
  }
}
