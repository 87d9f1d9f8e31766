import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context';
import { deviceCookieOf } from '../device-cookies';
import { underSignInLimit } from '../sign-in-policy';

type Ctx = Pick<AppContext, 'config' | 'now' | 'rateLimits' | 'metrics'>;

/**
 * The hourly allowance of wrong second factors, shared by the TOTP/recovery-code step and the
 * security-key step (counters in rate-limits.ts, shared through Redis when configured).
 *
 * Security invariants: every check is reserved before the factor is looked at, so parallel
 * guesses count too, and answered 429 past the device's or the account's allowance, even
 * when the factor is right; only a correct factor gives its own reserved point back. The
 * device is the browser's device cookie for this account when it carries one (its nonce),
 * else its address: a known browser is counted like a stranger, never exempt.
 */
export async function reserveSecondFactorCheck(
  ctx: Ctx,
  request: FastifyRequest,
  userId: string,
): Promise<{ succeeded: () => Promise<void> }> {
  const deviceKey = deviceKeyOf(ctx, request, userId);
  await underSignInLimit(ctx, () => ctx.rateLimits.beforeSecondFactor(userId, deviceKey));
  return { succeeded: () => ctx.rateLimits.secondFactorSucceeded(userId, deviceKey) };
}

function deviceKeyOf(ctx: Ctx, request: FastifyRequest, userId: string): string {
  const device = deviceCookieOf(request, ctx.config, ctx.now());
  return device?.userId === userId ? `cookie\u0000${device.nonce}` : `address\u0000${request.ip}`;
}
