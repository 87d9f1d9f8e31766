import { buildApp } from './app';
import { ConfigError, hasWebBuild, loadConfig } from './config/load-config';
import { createDatabase } from './db/create-database';
import { migrateToLatest } from './db/migrate';
import { readyAnnouncement } from './http/public-url';

/** How long in-flight requests get to finish after a stop signal. */
const SHUTDOWN_GRACE_MS = 10_000;

/**
 * Starts Lockit: config (fails fast with a clear message), migrations, then listen, then one
 * line with the address to open. On SIGTERM/SIGINT it stops accepting, finishes in-flight
 * requests, then closes the database and Redis.
 */
async function main(): Promise<void> {
  const config = await loadConfig(process.env);
  const db = createDatabase(config.database);
  try {
    await migrateToLatest(db, config.database.kind);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  const app = await buildApp(config, { db });
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) {
      process.exit(1); // a second signal: stop waiting
    }
    closing = true;
    app.log.info(`${signal} received: closing`);
    // Keep-alive connections that finish a request after close began would hold it open.
    const sweep = setInterval(() => app.server.closeIdleConnections(), 100);
    const deadline = setTimeout(() => app.server.closeAllConnections(), SHUTDOWN_GRACE_MS);
    try {
      await app.close();
      clearInterval(sweep);
      clearTimeout(deadline);
      await db.destroy();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'error while closing');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const ready = readyAnnouncement({
    host: config.host,
    port: typeof address === 'object' && address ? address.port : config.port,
    appOrigin: config.appOrigin,
    servesWebApp: hasWebBuild(config.webDistDir),
    behindProxy: config.trustProxy !== false,
  });
  app.log.info({ browserUrl: ready.url }, ready.message);
}

main().catch((error: unknown) => {
  const message =
    error instanceof ConfigError
      ? error.message
      : `Lockit could not start: ${error instanceof Error ? error.message : String(error)}`;
  process.stderr.write(`${message}\n`);
  process.exit(1);
});
