import type { AppContext } from '../app-context';
import type { UserRow } from '../db/repositories/users-repository';
import { HttpError } from '../http/http-error';
import type { SignInFailure } from '../observability/app-metrics';
import { MESSAGES } from '../routes/messages';

declare const admitted: unique symbol;

/**
 * An account this policy let through in the current request. Only `admitSignIn` makes one,
 * and `completeSignIn` (the one place a sign-in session is issued) and `startPendingSignIn`
 * take nothing else: a sign-in path that skips the policy does not compile.
 */
export type AdmittedUser = UserRow & { readonly [admitted]: true };

interface Refusal {
  metric: SignInFailure;
  error: HttpError;
}

/**
 * The sign-in policy, one place for every path that proves who someone is (master password,
 * passkey alone, and both second steps: TOTP/recovery code, security key). Called after the
 * proof was checked and counted, so an outsider's guess learns nothing from it.
 *
 * Security invariants: deny by default, an account is admitted only when it is verified and
 * not disabled (a disabled account is told so first: verifying it would not let it in);
 * every refusal records its metric (`signInFailed`) and gets
 * the same status, message and data on every path. This policy sends no mail on a refusal.
 */
export function admitSignIn(ctx: Pick<AppContext, 'metrics'>, user: UserRow): AdmittedUser {
  const refusal = refusalFor(user);
  if (refusal) {
    ctx.metrics.signInFailed(refusal.metric);
    throw refusal.error;
  }
  return user as AdmittedUser;
}

function refusalFor(user: UserRow): Refusal | undefined {
  if (user.disabled_at !== null) return { metric: 'disabled', error: new HttpError(403, MESSAGES.accountDisabled) };
  if (user.verified_at === null) {
    return {
      metric: 'unverified',
      // The data lets the client offer the code form (contract: unverifiedResponseSchema).
      error: new HttpError(403, MESSAGES.verifyEmailFirst, {
        data: { username: user.username, email: user.email, unverified: true },
      }),
    };
  }
  return undefined;
}

/**
 * The mail an admitted sign-in sends: the "new sign-in" notice for a browser that carried no
 * device cookie for the account, except on the account's very first sign-in (last_seen_at
 * still null: there is no usual browser yet). Decided here so no path forgets it.
 */
export function signInMailFor(user: AdmittedUser, knownDevice: boolean): 'newSignIn' | null {
  return !knownDevice && user.last_seen_at !== null ? 'newSignIn' : null;
}

/**
 * Runs a sign-in path's limiter (the sign-in lockouts before a password or passkey is checked,
 * the second-factor allowances before a code or key is). Whether it is over is the limiter's
 * to say; what a lockout costs is decided here alike for all four paths: its 429 goes out as
 * the limiter made it, counted as `rate_limited`.
 */
export async function underSignInLimit<T>(ctx: Pick<AppContext, 'metrics'>, limit: () => Promise<T>): Promise<T> {
  try {
    return await limit();
  } catch (refusal) {
    if (refusal instanceof HttpError && refusal.statusCode === 429) ctx.metrics.signInFailed('rate_limited');
    throw refusal;
  }
}
