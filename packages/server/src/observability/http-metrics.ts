import type { FastifyInstance } from 'fastify';
import type { AppMetrics } from './app-metrics';

/** The route label of a request no route matched (a 404, or a static file's fallback). */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Counts every answer and its duration by the matched route's pattern (`/api/passwords/:id`),
 * never by the URL the client sent, which can carry ids and names.
 */
export function installHttpMetrics(app: FastifyInstance, metrics: AppMetrics): void {
  // A callback hook, like the security headers: no promise per answer.
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.is404 ? undefined : request.routeOptions.url;
    metrics.httpRequest(request.method, route ?? UNMATCHED_ROUTE, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}
