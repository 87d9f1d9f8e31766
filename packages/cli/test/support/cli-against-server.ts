import { randomUUID } from 'node:crypto';
import { apiPaths } from '@lockit/contract';
import { emptyDraft, sealEntry, sealFolderName, toAddRequest, type EntryDraft } from '@lockit/client-core';
import {
  createServerDatabase,
  createVerifiedAccount,
  LogCodeInbox,
  startServerProcess,
  startTamperingProxy,
  type TamperingProxy,
  type DatabaseKind,
  type ServerDatabase,
  type ServerProcess,
  type VerifiedAccount,
} from '@lockit/test-support';

export const databaseKind: DatabaseKind = process.env['LOCKIT_TEST_DB'] === 'postgres' ? 'postgres' : 'sqlite';

/** The real server (a process) on a fresh database of this project's kind. */
export interface CliTestServer {
  url: string;
  server: ServerProcess;
  /** A lying server in front of the real one: to the command line it is the server. */
  proxy: TamperingProxy;
  account(): Promise<VerifiedAccount>;
  stop(): Promise<void>;
}

export async function startCliTestServer(): Promise<CliTestServer> {
  const database: ServerDatabase = await createServerDatabase(databaseKind, 'cli');
  const inbox = new LogCodeInbox();
  const server = await startServerProcess({ env: { ...database.env, TRUST_PROXY: '1' }, logLevel: 'info', onLine: inbox.onLine });
  const proxy = await startTamperingProxy(server.url);
  let n = 0;
  return {
    url: server.url,
    server,
    proxy,
    account: () => createVerifiedAccount(server.url, inbox, { forwardedFor: `198.51.100.${++n}` }),
    async stop() {
      await proxy.close();
      await server.stop();
      await database.drop();
    },
  };
}

/** A seeded item: a draft's parts over an empty draft of its type. */
export type SeedItem = Partial<EntryDraft> & { serviceName: string; folder?: string };

/**
 * Seals items as the web app does (the client core's sealEntry) and adds them and their folders
 * through the API with the account's own session. Returns the ids by name.
 */
export async function seedVault(holder: VerifiedAccount, items: readonly SeedItem[]): Promise<Map<string, string>> {
  const folderIds = new Map<string, string>();
  for (const name of new Set(items.flatMap((item) => (item.folder ? [item.folder] : [])))) {
    const id = randomUUID();
    await holder.client.expect(201, 'POST', apiPaths.folders, { id, name: await sealFolderName(holder.vaultKey, id, name) });
    folderIds.set(name, id);
  }
  const ids = new Map<string, string>();
  for (const { folder, ...item } of items) {
    const id = randomUUID();
    const draft: EntryDraft = { ...emptyDraft(item.type ?? 'login'), ...item, folderId: folder ? folderIds.get(folder)! : null };
    const sealed = await sealEntry(holder.vaultKey, id, draft);
    await holder.client.expect(201, 'POST', apiPaths.addEntry, toAddRequest(sealed));
    ids.set(item.serviceName, id);
  }
  return ids;
}

/** The command line's temporary home and program runner: shared with the e2e tests. */
export { cliHome, runProgram, type CliHome, type CliRun } from '@lockit/test-support/cli';
