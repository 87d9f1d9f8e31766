import {
  createServerDatabase,
  startServerProcess as startProcess,
  type ServerDatabase,
  type ServerProcess,
} from '@lockit/test-support';
import { TEST_DB_KIND } from './test-database';

export type { ServerProcess };
export type ProcessDatabase = ServerDatabase;

/** A database for server processes on this run's kind (LOCKIT_TEST_DB), unless told otherwise. */
export function createProcessDatabase(kind: ServerDatabase['kind'] = TEST_DB_KIND): Promise<ProcessDatabase> {
  return createServerDatabase(kind, 'lockit_process');
}

/** The real server, API only, with the given environment on top of the toolkit's minimal one. */
export function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  return startProcess({ env });
}
