import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startCoreTestServer, type CoreTestServer } from './core-against-server';

/**
 * The setup every client-core file against the server shares: the real server and its lying
 * proxy started before the file's tests and stopped after them, the proxy honest again before
 * each test. Answers the file's server; read its parts in hooks and tests, not at the top of the
 * file (they exist once the file's first hook ran). Call it before hooks of the file's own.
 */
export function useCoreServer(): CoreTestServer {
  let started: CoreTestServer | undefined;
  beforeAll(async () => {
    started = await startCoreTestServer();
  });
  afterAll(async () => {
    await started?.stop();
  });
  beforeEach(() => started?.proxy.clearRules());
  const current = (): CoreTestServer => {
    if (!started) throw new Error('The test server starts in beforeAll: use it in a hook or a test.');
    return started;
  };
  return {
    get database() {
      return current().database;
    },
    get server() {
      return current().server;
    },
    get inbox() {
      return current().inbox;
    },
    get proxy() {
      return current().proxy;
    },
    account: (entries, options) => current().account(entries, options),
    stop: () => current().stop(),
  };
}
