import { logInWithKeys, newAccount, signUpOverHttp, type NewAccountOptions, type TestAccount } from './accounts';
import { ApiClient } from './api-client';
import type { CodeInbox } from './code-inbox';
import { addEntries, vaultKeyOf, type PlainEntry } from './entries';

export interface VerifiedAccount {
  account: TestAccount;
  /** Signed in: holds the account's session cookies. */
  client: ApiClient;
  vaultKey: CryptoKey;
  /** The stored wire entries, in the order given. */
  entries: Array<Record<string, unknown>>;
}

export interface VerifiedAccountOptions extends NewAccountOptions {
  entries?: ReadonlyArray<PlainEntry>;
  forwardedFor?: string;
}

/** A new account signed up, verified with its mailed (or logged) code, signed in, with entries. */
export async function createVerifiedAccount(
  baseUrl: string,
  inbox: CodeInbox,
  options: VerifiedAccountOptions = {},
): Promise<VerifiedAccount> {
  const account = await newAccount(options);
  const client = new ApiClient(baseUrl, options.forwardedFor);
  await signUpOverHttp(client, inbox, account);
  await logInWithKeys(client, account);
  const vaultKey = await vaultKeyOf(account);
  const entries = options.entries?.length ? await addEntries(client, vaultKey, options.entries) : [];
  return { account, client, vaultKey, entries };
}
