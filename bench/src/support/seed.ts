import {
  deriveKeysFromPassword,
  encryptField,
  generateVaultKeyBytes,
  importVaultKey,
  newEntryId,
  randomSalt,
  wrapVaultKey,
  type KdfParams,
} from '@lockit/crypto';
import { ApiSession, apiPaths } from './api-client';

/** The policy floor: seeding thousands of accounts at the defaults would take hours. */
export const FLOOR_KDF: KdfParams = { algorithm: 'argon2id', memoryKiB: 19_456, iterations: 2, parallelism: 1 };

/** What a browser holds after sign-up: the keys of one master password. */
export interface SeedKeys {
  password: string;
  params: KdfParams;
  salt: string;
  authKey: string;
  protectedKey: string;
  vaultKey: CryptoKey;
}

/**
 * Derives keys as the web app's sign-up does. Seeded accounts share them (one KDF instead of
 * thousands); the server cannot tell, since it sees only authKey and ciphertexts.
 */
export async function prepareKeys(password: string, params: KdfParams = FLOOR_KDF): Promise<SeedKeys> {
  const salt = randomSalt();
  const keys = await deriveKeysFromPassword(password, salt, params);
  const vaultKeyBytes = generateVaultKeyBytes();
  const protectedKey = await wrapVaultKey(vaultKeyBytes, keys.wrapKey, params, salt);
  const vaultKey = await importVaultKey(vaultKeyBytes);
  return { password, params, salt, authKey: keys.authKey, protectedKey, vaultKey };
}

export interface EntryBody {
  id: string;
  serviceName: string;
  username: string;
  password: string;
  url: string | null;
  notes: string | null;
}

/** A realistic entry, every field a real ciphertext bound to a fresh id. */
export async function encryptEntry(vaultKey: CryptoKey, n: number): Promise<EntryBody> {
  const id = newEntryId();
  const password = Buffer.from(crypto.getRandomValues(new Uint8Array(15))).toString('base64url');
  const seal = (field: 'serviceName' | 'username' | 'password' | 'url' | 'notes', text: string) =>
    encryptField(vaultKey, id, field, text);
  return {
    id,
    serviceName: await seal('serviceName', `Service ${n}`),
    username: await seal('username', `user${n}@example.com`),
    password: await seal('password', password),
    url: await seal('url', `https://service${n}.example.com/login`),
    notes: n % 4 === 0 ? await seal('notes', `Recovery codes are in the safe. Account ${n}.`) : null,
  };
}

/** Reads the verification codes the development mailer writes to the server log. */
export class CodeInbox {
  private codes = new Map<string, string>();
  private waiters = new Map<string, (code: string) => void>();

  /** Pass to the server process's `onLine`. */
  readonly onLine = (line: string) => {
    if (!line.includes('"devMail":true')) return;
    const record = JSON.parse(line) as { username?: string; code?: string };
    if (!record.username || !record.code) return;
    const waiter = this.waiters.get(record.username);
    if (waiter) {
      this.waiters.delete(record.username);
      waiter(record.code);
    } else this.codes.set(record.username, record.code);
  };

  codeFor(username: string, timeoutMs = 20_000): Promise<string> {
    const known = this.codes.get(username);
    if (known) {
      this.codes.delete(username);
      return Promise.resolve(known);
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no verification code for ${username}`)), timeoutMs);
      this.waiters.set(username, (code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
  }
}

/** One client address per account (the server runs with TRUST_PROXY=true in the benches). */
export function clientIp(n: number): string {
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

/** Sign-up, the emailed code, and sign-in, through the API as the web app does them. */
export async function createSignedInAccount(
  baseUrl: string,
  inbox: CodeInbox,
  keys: SeedKeys,
  username: string,
  ip: string,
): Promise<ApiSession> {
  const session = new ApiSession(baseUrl, ip);
  const email = `${username}@example.test`;
  await session.expect(201, 'POST', apiPaths.createUser, {
    fullname: 'Bench User',
    username,
    email,
    password: keys.authKey,
    kdf: keys.params,
    salt: keys.salt,
    protectedKey: keys.protectedKey,
  });
  await session.expect(200, 'POST', apiPaths.sendCode, { email, username });
  const code = await inbox.codeFor(username);
  await session.expect(200, 'POST', apiPaths.verifyCode, { email, username, code });
  await signIn(session, username, keys.authKey);
  return session;
}

export async function signIn(session: ApiSession, username: string, authKey: string): Promise<void> {
  await session.expect(200, 'POST', apiPaths.prelogin, { username });
  await session.expect(200, 'POST', apiPaths.login, { username, password: authKey });
}

/** Adds `count` entries through the API, `concurrency` requests at a time. */
export async function addEntries(session: ApiSession, vaultKey: CryptoKey, count: number, concurrency = 8): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const n = next++;
      await session.expect(201, 'POST', apiPaths.addEntry, await encryptEntry(vaultKey, n));
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}

/** Runs `task(i)` for i in [0, count) with at most `concurrency` at once. */
export async function inParallel(count: number, concurrency: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}
