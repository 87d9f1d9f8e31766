import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';

/** A command Redis has not answered by then fails, and the rate limit falls back to memory. */
export const REDIS_COMMAND_TIMEOUT_MS = 500;
const REDIS_CONNECT_TIMEOUT_MS = 2_000;
/** How long start waits for Redis before serving with memory limits. */
const REDIS_READY_TIMEOUT_MS = 2_000;
const TIMED_OUT = 'Command timed out';

/**
 * Opens the shared rate-limit store. Rate limits must never wait on Redis: with no offline
 * queue a command fails at once while Redis is unreachable, and with a command timeout it
 * fails after REDIS_COMMAND_TIMEOUT_MS when Redis accepts the connection but does not
 * answer (frozen, swapping, SIGSTOP). Either failure makes rate-limiter-flexible use its
 * memory insurance limiter.
 *
 * A frozen Redis would still cost every command its full timeout, and sign-in runs several
 * in a row; so the first timeout drops the connection (ioredis reconnects by itself), and
 * until Redis answers again commands fail at once instead of waiting.
 */
export async function openRedis(url: string, log: FastifyBaseLogger): Promise<Redis> {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
  });
  let warned = false;
  const warnOnce = (error: Error, message: string) => {
    if (!warned) log.warn({ err: error }, message);
    warned = true;
  };
  redis.on('error', (error: Error) => warnOnce(error, 'Redis unreachable: rate limits fall back to this process'));
  redis.on('ready', () => {
    if (warned) log.info('Redis reachable again: rate limits are shared again');
    warned = false;
  });

  // ioredis has no event for a command timeout; the command's own promise is the one place
  // it shows. Wrapping sendCommand sees every command, the rate limiter's scripts included.
  const send = redis.sendCommand.bind(redis);
  redis.sendCommand = ((command, stream) => {
    const result = send(command, stream);
    command.promise.catch((error: unknown) => {
      if (!(error instanceof Error) || error.message !== TIMED_OUT || redis.status !== 'ready') return;
      warnOnce(error, `Redis did not answer within ${REDIS_COMMAND_TIMEOUT_MS} ms: rate limits fall back to this process`);
      redis.disconnect(true);
    });
    return result;
  }) as typeof redis.sendCommand;

  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, REDIS_READY_TIMEOUT_MS);
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  return redis;
}
