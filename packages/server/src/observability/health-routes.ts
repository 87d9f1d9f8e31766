import type { FastifyInstance } from 'fastify';
import { MESSAGES } from '../routes/messages';
import { checkReadiness, type CheckName, type Readiness, type ReadinessDeps } from './readiness';

export const HEALTH_PATHS = { healthz: '/healthz', readyz: '/readyz' } as const;

/**
 * GET /healthz: the process is up and answering (no database call): for a liveness probe.
 * GET /readyz: 200 when the database, its migrations and Redis (when configured) are fine,
 * else 503 naming each failed check: for a readiness probe or a load balancer. Both public
 * (a probe has no session), GETs (the origin check lets them through), outside /api (no
 * rate limit applies), and never the web app's shell. While the server closes, Fastify
 * answers 503 to every new request, so a closing process drops out of rotation.
 */
export function registerHealthRoutes(app: FastifyInstance, deps: ReadinessDeps): void {
  const healthy = { message: MESSAGES.ok };
  app.get(HEALTH_PATHS.healthz, { config: { public: true } }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return healthy;
  });

  // Probes that arrive while a check runs share it: a flood of probes costs one query at a time.
  let running: Promise<Readiness> | undefined;
  let wasReady = true;
  app.get(HEALTH_PATHS.readyz, { config: { public: true } }, async (request, reply) => {
    running ??= checkReadiness(deps).finally(() => {
      running = undefined;
    });
    const readiness = await running;
    if (readiness.ready !== wasReady) {
      wasReady = readiness.ready;
      if (readiness.ready) request.log.info('ready again: every readiness check passes');
      else request.log.warn({ checks: causes(readiness) }, 'not ready');
    }
    const checks = Object.fromEntries(
      Object.entries(readiness.checks).map(([name, check]) => [
        name,
        check.ok ? { ok: true } : { ok: false, message: check.message },
      ]),
    );
    reply.header('cache-control', 'no-store');
    if (readiness.ready) return { message: 'Ready', data: { checks } };
    const failed = Object.entries(readiness.checks)
      .filter(([, check]) => !check.ok)
      .map(([name]) => name as CheckName);
    return reply.code(503).send({ message: `Not ready: ${failed.join(', ')} failed.`, data: { checks } });
  });
}

/** The errors behind failed checks, for the log only (it is the operator's, the answer is public). */
function causes(readiness: Readiness): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(readiness.checks)
      .filter(([, check]) => !check.ok)
      .map(([name, check]) => [name, check.ok ? undefined : { message: check.message, error: describe(check.cause) }]),
  );
}

function describe(cause: unknown): string | undefined {
  if (cause === undefined) return undefined;
  return cause instanceof Error ? cause.message : String(cause);
}
