import { apiPaths } from '@lockit/contract';
import { deriveAccountKeys, deriveKeysFromPassword, generateVaultKeyBytes, wrapVaultKey, type KdfParams } from '@lockit/crypto';
import { ApiClient, newAccount, sealEntry, signInOverHttp, signUpOverHttp, type SmtpSink } from '@lockit/test-support';
// Raw Argon2id with no policy: @lockit/crypto (rightly) refuses to derive below the floor, but
// a test must compute what a downgraded client WOULD send, to prove it never was.
import { argon2id } from 'hash-wasm';
import type { RecordedRequest } from '@lockit/test-support';

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

/**
 * Creates and verifies an account straight through the API with the given params, as an
 * older or other client could have: the browser under test then meets them for the first
 * time at sign-in.
 */
export async function createAccountViaApi(
  serverUrl: string,
  smtp: SmtpSink,
  person: { fullname: string; username: string; email: string; password: string },
  kdf: KdfParams,
): Promise<void> {
  await signUpOverHttp(new ApiClient(serverUrl), smtp.inbox, await newAccount({ ...person, kdf }));
}

/** A signed-in API session outside the browser: its client (cookies) and its unwrapped vault key. */
export interface ApiSession {
  client: ApiClient;
  vaultKey: CryptoKey;
}

/** Signs in straight through the API, the way the web app does, and unwraps the vault key. */
export async function signInViaApi(serverUrl: string, username: string, password: string): Promise<ApiSession> {
  const client = new ApiClient(serverUrl);
  return { client, vaultKey: await signInOverHttp(client, username, password) };
}

/** Adds one entry, encrypted as the web app encrypts it; returns the stored wire entry. */
export async function addEntryViaApi(
  session: ApiSession,
  fields: { serviceName: string; username: string; password: string },
): Promise<Record<string, unknown>> {
  const answer = await session.client.expect<{ data: Record<string, unknown> }>(
    201,
    'POST',
    apiPaths.addEntry,
    await sealEntry(session.vaultKey, fields),
  );
  return answer.data;
}
