import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startNodeProcess, type NodeProcess } from './node-process';
import { webDist } from './repo-paths';
import { SERVER_BUILD_ENV } from './server-build';

export type ServerProcess = NodeProcess;

export interface ServerProcessOptions {
  /** DATA_DIR and DATABASE_URL (from `createServerDatabase`), SMTP_URL, limits, secrets... */
  env?: Record<string, string>;
  /** Serve the built web app as production does (NODE_ENV=production, WEB_DIST_DIR); else the API only. */
  webApp?: boolean;
  /** Default `warn`; `info` makes the development mailer log verification codes. */
  logLevel?: 'info' | 'warn' | 'error';
  onLine?: (line: string) => void;
  nodeArgs?: string[];
}

/**
 * The Lockit server as `npm run serve` starts it (packages/server/src/main.ts through tsx), on a
 * free port, ready once its API answers (migrations run before it listens). Where the suite's
 * global setup built the server into one file (server-build.ts), that file runs instead.
 */
export function startServerProcess(options: ServerProcessOptions = {}): Promise<ServerProcess> {
  if (options.webApp && !existsSync(join(webDist, 'index.html'))) {
    throw new Error(`The web app is not built at ${webDist}: run \`npm run build\` first (npm test does).`);
  }
  return startNodeProcess({
    script: process.env[SERVER_BUILD_ENV] ?? 'packages/server/src/main.ts',
    readyPath: '/api/user/profile',
    env: {
      LOG_LEVEL: options.logLevel ?? 'warn',
      // JSON logs: tests and benches read lines of it (the development mailer's codes).
      LOG_FORMAT: 'json',
      ...(options.webApp ? { NODE_ENV: 'production', WEB_DIST_DIR: webDist } : {}),
      ...options.env,
    },
    ...(options.onLine ? { onLine: options.onLine } : {}),
    ...(options.nodeArgs ? { nodeArgs: options.nodeArgs } : {}),
  });
}
