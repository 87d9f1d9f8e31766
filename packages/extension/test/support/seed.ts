import { emptyDraft, sealEntry, toAddRequest } from '@lockit/client-core';
import { apiPaths, type UrlMatchRule } from '@lockit/contract';
import { newEntryId } from '@lockit/crypto';
import {
  createServerDatabase,
  createVerifiedAccount,
  LogCodeInbox,
  startServerProcess,
  type ServerDatabase,
  type ServerProcess,
  type VerifiedAccount,
} from '@lockit/test-support';
import { Secret, TOTP } from 'otpauth';

export interface LoginItem {
  name: string;
  username: string;
  password: string;
  urls: string[];
  /** Match rules of addresses that do not follow the extension's default. */
  urlRules?: Record<string, UrlMatchRule>;
  totp?: string;
}

/** A card item: no web address, its number and code sealed as secrets. */
export interface CardItem {
  type: 'card';
  name: string;
  card: { holder: string; brand: string; number: string; code: string; expMonth: string; expYear: string };
}

export interface SeededServer {
  server: ServerProcess;
  /** A verified account with the given items, saved as the web app saves them (the client core's sealEntry). */
  account(items: readonly (LoginItem | CardItem)[]): Promise<VerifiedAccount>;
  /** Adds an item as another device of the account would (no vault state: the vault has none yet). */
  add(account: VerifiedAccount, item: LoginItem | CardItem): Promise<void>;
  /** Turns two-step sign-in on for the account; returns its authenticator secret. */
  enableTotp(account: VerifiedAccount): Promise<string>;
  stop(): Promise<void>;
}

/** The real Lockit server (a process, API only) on a fresh SQLite database. */
export async function startSeededServer(): Promise<SeededServer> {
  const database: ServerDatabase = await createServerDatabase('sqlite', 'extension');
  const inbox = new LogCodeInbox();
  const server = await startServerProcess({ env: database.env, logLevel: 'info', onLine: inbox.onLine });
  return {
    server,
    async account(items) {
      const verified = await createVerifiedAccount(server.url, inbox);
      for (const item of items) await addItem(verified, item);
      return verified;
    },
    add: addItem,
    async enableTotp({ client, account }) {
      const setup = await client.expect<{ data: { secret: string } }>(200, 'POST', apiPaths.totpSetup, {
        password: account.keys.authKey,
      });
      const secret = setup.data.secret;
      await client.expect(200, 'POST', apiPaths.totpConfirm, { code: totpNow(secret) });
      return secret;
    },
    async stop() {
      await server.stop();
      await database.drop();
    },
  };
}

async function addItem(verified: VerifiedAccount, item: LoginItem | CardItem): Promise<void> {
  const draft =
    'type' in item
      ? { ...emptyDraft('card'), serviceName: item.name, card: { ...item.card } }
      : {
          ...emptyDraft('login'),
          serviceName: item.name,
          username: item.username,
          password: item.password,
          urls: item.urls,
          ...(item.urlRules && { urlRules: item.urlRules }),
          totp: item.totp ?? '',
        };
  const sealed = await sealEntry(verified.vaultKey, newEntryId(), draft);
  await verified.client.expect(201, 'POST', apiPaths.addEntry, toAddRequest(sealed));
}

/** The authenticator's code for `secret` at `at` (ms). */
export function totpNow(secret: string, at = Date.now()): string {
  return new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: at });
}
