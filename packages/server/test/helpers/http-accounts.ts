import { apiPaths } from '@lockit/contract';
import { decryptField, importVaultKey, type EntryFieldName } from '@lockit/crypto';
import { createBody, newAccount, type TestAccount } from './accounts';
import type { PlainEntry } from './entries';
import type { HttpClient } from './http-client';
import type { SmtpSink } from './smtp-sink';

/** Sign-up, the mailed code, verification and sign-in, over HTTP as the web app does them. */
export async function signUpOverHttp(client: HttpClient, sink: SmtpSink, account?: TestAccount): Promise<TestAccount> {
  const person = account ?? (await newAccount());
  const created = await client.post(apiPaths.createUser, createBody(person));
  if (created.status !== 201) throw new Error(`create answered ${created.status}: ${created.body.message}`);
  const nth = sink.mailsTo(person.email).length + 1;
  await client.post(apiPaths.sendCode, { email: person.email, username: person.username });
  const code = await sink.waitForCode(person.email, nth);
  const verified = await client.post(apiPaths.verifyCode, { email: person.email, username: person.username, code });
  if (verified.status !== 200) throw new Error(`verify-code answered ${verified.status}: ${verified.body.message}`);
  const signedIn = await client.post(apiPaths.login, { username: person.username, password: person.keys.authKey });
  if (signedIn.status !== 200) throw new Error(`login answered ${signedIn.status}: ${signedIn.body.message}`);
  return person;
}

const FIELDS: Array<[EntryFieldName, keyof PlainEntry]> = [
  ['serviceName', 'serviceName'],
  ['username', 'username'],
  ['password', 'password'],
  ['url', 'url'],
  ['notes', 'notes'],
];

/** An entry as the server returned it, decrypted with the owner's vault key (throws if tampered). */
export async function decryptWireEntry(account: TestAccount, wire: Record<string, unknown>): Promise<PlainEntry> {
  const vaultKey = await importVaultKey(account.vaultKeyBytes);
  const id = wire.id as string;
  const plain: Record<string, string | null> = {};
  for (const [field, key] of FIELDS) {
    const value = wire[field];
    plain[key] = typeof value === 'string' ? await decryptField(vaultKey, id, field, value) : null;
  }
  return plain as unknown as PlainEntry;
}
