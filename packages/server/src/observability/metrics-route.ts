import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { MetricsConfig } from '../config/app-config';
import { MESSAGES } from '../routes/messages';
import { processRegistry, type AppMetrics } from './app-metrics';

export const METRICS_PATH = '/metrics';
export const METRICS_TOKEN_REQUIRED = 'Send the metrics token as Authorization: Bearer <token>.';

/**
 * GET /metrics: the Prometheus text of this app's series and the process's. Public to the
 * session guard (a scraper has no session); with METRICS_TOKEN it needs that token as a
 * bearer token, compared in constant time. Without a token anyone who can reach it can read
 * it, so it belongs on a private network then. METRICS_ENABLED=false answers 404 (the route
 * stays, so that the web app's shell is never served in its place).
 */
export function registerMetricsRoute(app: FastifyInstance, metrics: AppMetrics, config: MetricsConfig): void {
  const expected = config.token === undefined ? undefined : digest(config.token);
  app.get(METRICS_PATH, { config: { public: true } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    if (!config.enabled) return reply.code(404).send({ message: MESSAGES.notFound });
    if (expected && !matches(request.headers.authorization, expected)) {
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer realm="lockit-metrics"')
        .send({ message: METRICS_TOKEN_REQUIRED });
    }
    const registry = metrics.registry;
    const text = (await registry.metrics()) + (await processRegistry().metrics());
    return reply.type(registry.contentType).send(text);
  });
}

/** SHA-256 first: timingSafeEqual needs equal lengths, and the length must not leak either. */
function matches(authorization: string | undefined, expected: Buffer): boolean {
  const given = /^Bearer +(\S+) *$/i.exec(authorization ?? '')?.[1];
  return given !== undefined && timingSafeEqual(digest(given), expected);
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
