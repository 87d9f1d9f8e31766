import { routeTable } from '@lockit/contract/routes';
import { deriveKeysFromPassword } from '@lockit/crypto';
import {
  ApiClient as BrowserStandIn,
  createServerDatabase,
  createVerifiedAccount,
  LogCodeInbox,
  startServerProcess,
  startTamperingProxy,
  type DatabaseKind,
  type PlainEntry,
  type ServerDatabase,
  type ServerProcess,
  type TamperingProxy,
  type VerifiedAccount,
} from '@lockit/test-support';
import { ApiClient, DeviceMemory, MemoryKeyValueStore, openVaultKeys, type KeyPlatform, type OpenVault } from '../../src';

/** The database this project's run is about (the client-core:sqlite and client-core:postgres projects). */
export const databaseKind: DatabaseKind = process.env['LOCKIT_TEST_DB'] === 'postgres' ? 'postgres' : 'sqlite';

/**
 * The real Lockit server (a process, as `npm start` runs it) on a fresh database, and a lying
 * server in front of it: a proxy that forwards everything and rewrites the answers a test
 * chooses. A client core pointed at the proxy talks to a server that lies.
 */
export interface CoreTestServer {
  database: ServerDatabase;
  server: ServerProcess;
  inbox: LogCodeInbox;
  /** The lying server: to the client it is the server. */
  proxy: TamperingProxy;
  /** A verified account on the real server, signed in there by the test toolkit (not by the core). */
  account(entries?: ReadonlyArray<PlainEntry>, options?: { password?: string }): Promise<VerifiedAccount>;
  stop(): Promise<void>;
}

export async function startCoreTestServer(): Promise<CoreTestServer> {
  const database = await createServerDatabase(databaseKind, 'core');
  const inbox = new LogCodeInbox();
  // TRUST_PROXY: each account and device comes from an address of its own (X-Forwarded-For), so
  // the per-address limits of sign-up and sign-in meet one test's traffic, not the file's.
  const server = await startServerProcess({
    env: { ...database.env, TRUST_PROXY: '1' },
    logLevel: 'info',
    onLine: inbox.onLine,
  });
  const proxy = await startTamperingProxy(server.url);
  return {
    database,
    server,
    inbox,
    proxy,
    account: (entries = [], options = {}) =>
      createVerifiedAccount(server.url, inbox, { entries, forwardedFor: nextAddress(), ...options }),
    async stop() {
      await proxy.close();
      await server.stop();
      await database.drop();
    },
  };
}

/** One device running the client core: its own cookies, its own memory, Argon2id in Node. */
export interface CoreDevice {
  platform: KeyPlatform<OpenVault>;
  memory: DeviceMemory;
  /** The device's cookies (the test toolkit's browser stand-in carries them). */
  cookies: BrowserStandIn;
}

export function coreDevice(baseUrl: string): CoreDevice {
  const cookies = new BrowserStandIn(baseUrl, nextAddress());
  const memory = new DeviceMemory(new MemoryKeyValueStore());
  const api = new ApiClient({ baseUrl, transport: cookies.transport, routes: () => routeTable });
  const platform: KeyPlatform<OpenVault> = {
    api,
    memory,
    derive: deriveKeysFromPassword,
    device: () => ({ mobile: false }),
    open: openVaultKeys,
  };
  return { platform, memory, cookies };
}

let addresses = 0;
/** A client address of its own (documentation range: only ever a header value here). */
function nextAddress(): string {
  addresses += 1;
  return `198.51.${Math.floor(addresses / 250)}.${(addresses % 250) + 1}`;
}
