import {
  deriveAccountKeys,
  deriveKeysFromPassword,
  encryptField,
  generateVaultKeyBytes,
  importVaultKey,
  newEntryId,
  randomSalt,
  unwrapVaultKey,
  wrapVaultKey,
  type KdfParams,
} from '@lockit/crypto';
// Raw Argon2id with no policy: @lockit/crypto (rightly) refuses to derive below the floor, but
// a test must compute what a downgraded client WOULD send, to prove it never was.
import { argon2id } from 'hash-wasm';
import type { SmtpSink } from './smtp-sink';
import type { RecordedRequest } from './tampering-proxy';

/** The authKey a client would send for `password` under `params` and `salt`, floor or not. */
export async function authKeyUnchecked(password: string, salt: string, params: KdfParams): Promise<string> {
  const masterKey = await argon2id({
    password: new TextEncoder().encode(password.normalize('NFKC')),
    salt: Buffer.from(salt, 'base64url'),
    iterations: params.iterations,
    parallelism: params.parallelism,
    memorySize: params.memoryKiB,
    hashLength: 32,
    outputType: 'binary',
  });
  return (await deriveAccountKeys(masterKey)).authKey;
}

/** The authKey the real client derives (within the policy). */
export async function authKeyOf(password: string, salt: string, params: KdfParams): Promise<string> {
  return (await deriveKeysFromPassword(password, salt, params)).authKey;
}

/**
 * What a hostile server can make on its own: a fresh vault key wrapped under the wrapKey of a
 * password IT chose, with the account's real params and salt, so only the key differs.
 */
export async function forgeProtectedKey(attackerPassword: string, salt: string, params: KdfParams): Promise<string> {
  const keys = await deriveKeysFromPassword(attackerPassword, salt, params);
  return wrapVaultKey(generateVaultKeyBytes(), keys.wrapKey, params, salt);
}

/**
 * Every form in which a secret could sit in a request or a database: as typed, URL-encoded
 * (both space styles), hex, and the base64 / base64url characters that encode only the
 * secret's own bytes at each of the three alignments (so it is found inside a larger
 * encoded blob too). `caseless` forms are compared with the haystack lowercased.
 */
export function encodedForms(secret: string): { caseless: string[]; exact: string[] } {
  const bytes = Buffer.from(secret, 'utf8');
  const caseless = [secret, encodeURIComponent(secret), encodeURIComponent(secret).replaceAll('%20', '+'), bytes.toString('hex')];
  const exact: string[] = [];
  for (let shift = 0; shift < 3; shift++) {
    const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
    // Character i carries bits [6i, 6i + 6): keep those lying wholly inside the secret.
    const from = Math.ceil((8 * shift) / 6);
    const to = Math.floor((8 * (shift + bytes.length)) / 6);
    const core = encoded.slice(from, to);
    exact.push(core, core.replaceAll('+', '-').replaceAll('/', '_'));
  }
  return { caseless: [...new Set(caseless.map((s) => s.toLowerCase()))], exact: [...new Set(exact)] };
}

/** The secrets (by label) found in `haystack` in any of their encoded forms. */
export function findSecrets(haystack: string, secrets: Record<string, string>): string[] {
  const lower = haystack.toLowerCase();
  return Object.entries(secrets)
    .filter(([, secret]) => {
      const forms = encodedForms(secret);
      return forms.caseless.some((form) => lower.includes(form)) || forms.exact.some((form) => haystack.includes(form));
    })
    .map(([label]) => label);
}

/** Everything the browser sent through the proxy: paths, header values and bodies. */
export function sentText(requests: readonly RecordedRequest[]): string {
  return requests.map((r) => `${r.method} ${r.path}\n${JSON.stringify(r.headers)}\n${r.body}`).join('\n');
}

const JSON_HEADERS = { 'content-type': 'application/json', 'x-lockit-client': 'web' };

async function post(url: string, body: unknown): Promise<void> {
  const answer = await fetch(url, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify(body) });
  if (!answer.ok) throw new Error(`${url} answered ${answer.status}: ${await answer.text()}`);
}

/**
 * Creates and verifies an account straight through the API with the given params, as an
 * older or other client could have: the browser under test then meets them for the first
 * time at sign-in.
 */
export async function createAccountViaApi(
  serverUrl: string,
  smtp: SmtpSink,
  account: { fullname: string; username: string; email: string; password: string },
  kdf: KdfParams,
): Promise<void> {
  const salt = randomSalt();
  const keys = await deriveKeysFromPassword(account.password, salt, kdf);
  const protectedKey = await wrapVaultKey(generateVaultKeyBytes(), keys.wrapKey, kdf, salt);
  const mailsBefore = smtp.mails.length;
  await post(`${serverUrl}/api/users/create`, {
    fullname: account.fullname,
    username: account.username,
    email: account.email,
    password: keys.authKey,
    kdf,
    salt,
    protectedKey,
  });
  await post(`${serverUrl}/api/email/send-code`, { email: account.email, username: account.username });
  const code = await smtp.waitForCode(account.email, mailsBefore);
  await post(`${serverUrl}/api/email/verify-code`, { email: account.email, username: account.username, code });
}

/** A signed-in API session outside the browser: its cookies and its unwrapped vault key. */
export interface ApiSession {
  cookie: string;
  vaultKey: CryptoKey;
}

/** Signs in straight through the API, the way the web app does, and unwraps the vault key. */
export async function signInViaApi(serverUrl: string, username: string, password: string): Promise<ApiSession> {
  const pre = (await (
    await fetch(`${serverUrl}/api/users/prelogin`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ username }) })
  ).json()) as { data: { salt: string; kdf: KdfParams } };
  const keys = await deriveKeysFromPassword(password, pre.data.salt, pre.data.kdf);
  const answer = await fetch(`${serverUrl}/api/users/login`, {
    method: 'POST',
    headers: JSON_HEADERS,
    body: JSON.stringify({ username, password: keys.authKey }),
  });
  if (!answer.ok) throw new Error(`login answered ${answer.status}`);
  const { data } = (await answer.json()) as { data: { protectedKey: string } };
  const bytes = await unwrapVaultKey(data.protectedKey, keys.wrapKey, pre.data.kdf, pre.data.salt);
  const cookie = answer.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  return { cookie, vaultKey: await importVaultKey(bytes) };
}

/** Adds one entry, encrypted as the web app encrypts it; returns the stored wire entry. */
export async function addEntryViaApi(
  serverUrl: string,
  session: ApiSession,
  fields: { serviceName: string; username: string; password: string },
): Promise<Record<string, unknown>> {
  const id = newEntryId();
  const body = {
    id,
    serviceName: await encryptField(session.vaultKey, id, 'serviceName', fields.serviceName),
    username: await encryptField(session.vaultKey, id, 'username', fields.username),
    password: await encryptField(session.vaultKey, id, 'password', fields.password),
  };
  const answer = await fetch(`${serverUrl}/api/passwords/add`, {
    method: 'POST',
    headers: { ...JSON_HEADERS, cookie: session.cookie },
    body: JSON.stringify(body),
  });
  if (!answer.ok) throw new Error(`add answered ${answer.status}: ${await answer.text()}`);
  return ((await answer.json()) as { data: Record<string, unknown> }).data;
}
