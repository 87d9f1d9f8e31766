import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { createListeners, parseBusMessage, type BusMessage, type NoticeBus } from './notice-bus';

/**
 * The bus over Redis pub/sub (REDIS_URL set): every process publishes on one channel and
 * subscribes to it on a connection of its own (a subscribed connection can do nothing else).
 * ioredis reconnects and subscribes again by itself; between losing the connection and getting
 * it back the bus is down: streams end, and new ones are refused until it is back.
 */
export async function createRedisNoticeBus(redis: Redis, channel: string, log: FastifyBaseLogger): Promise<NoticeBus> {
  const messages = createListeners<[BusMessage]>();
  const down = createListeners<[]>();
  const subscriber = redis.duplicate({ enableOfflineQueue: true, commandTimeout: undefined });
  let up = false;
  const markDown = () => {
    if (!up) return;
    up = false;
    log.warn('Redis unreachable: live vault notices stopped; clients catch up with the change cursor');
    down.emit();
  };
  subscriber.on('error', () => markDown());
  subscriber.on('close', markDown);
  subscriber.on('end', markDown);
  subscriber.on('message', (_channel: string, text: string) => {
    const message = parseBusMessage(text);
    if (message) messages.emit(message);
  });
  // ioredis subscribes again on reconnect, before `ready`: the bus is up only once it listens.
  subscriber.on('ready', () => {
    if (!up) log.info('Live vault notices shared through Redis');
    up = true;
  });
  await subscriber.subscribe(channel).catch((error: unknown) => log.warn({ err: error }, 'Redis: could not subscribe'));
  up = subscriber.status === 'ready';
  return {
    kind: 'redis',
    publish(message) {
      redis.publish(channel, JSON.stringify(message)).catch(() => {
        // The notice is lost; the stream that would have shown it ends with the connection.
      });
    },
    subscribe: messages.add,
    onDown: down.add,
    isUp: () => up && redis.status === 'ready',
    async close() {
      up = false;
      subscriber.removeAllListeners();
      subscriber.on('error', () => {});
      subscriber.disconnect();
    },
  };
}
