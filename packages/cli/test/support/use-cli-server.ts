import type { VerifiedAccount } from '@lockit/test-support';
import { afterAll, beforeAll } from 'vitest';
import { cliHome, seedVault, startCliTestServer, type CliHome, type CliTestServer, type SeedItem } from './cli-against-server';

export interface CliTestFile {
  /** The file's server; read it in a hook or a test, never at the top of the file. */
  readonly server: CliTestServer;
  /** A new terminal's lockit, with its own agent: logged out and removed when the file ends. */
  home(): Promise<CliHome>;
  /**
   * A new account with `items` seeded, and a home signed in to it, to the server or through its
   * lying proxy (which only records until a test gives it rules).
   */
  signedIn(
    items: readonly SeedItem[],
    options?: { through?: 'server' | 'proxy' },
  ): Promise<{ holder: VerifiedAccount; cli: CliHome; ids: Map<string, string> }>;
}

/**
 * The setup every command-line test file shares: the real server on this project's database
 * before the file's tests, and after them every home's agent stopped and the server and its
 * database gone. Call it at the top of the file, before hooks of the file's own.
 */
export function useCliServer(): CliTestFile {
  let server: CliTestServer | undefined;
  const homes: CliHome[] = [];
  beforeAll(async () => {
    server = await startCliTestServer();
  });
  afterAll(async () => {
    await Promise.all(homes.map((made) => made.dispose()));
    await server?.stop();
  });
  const file: CliTestFile = {
    get server() {
      if (!server) throw new Error('The test server starts in beforeAll: read it in a hook or a test.');
      return server;
    },
    async home() {
      const made = await cliHome();
      homes.push(made);
      return made;
    },
    async signedIn(items, { through = 'server' } = {}) {
      const holder = await file.server.account();
      const ids = await seedVault(holder, items);
      const cli = await file.home();
      const login = await cli.login(through === 'proxy' ? file.server.proxy.url : file.server.url, holder);
      if (login.code !== 0) throw new Error(`lockit login failed: ${login.stderr}`);
      return { holder, cli, ids };
    },
  };
  return file;
}
