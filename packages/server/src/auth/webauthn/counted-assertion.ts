import type { AppContext } from '../../app-context';
import type { WebauthnCredentialRow } from '../../db/repositories/webauthn-repository';
import { verifyAssertion } from './ceremonies';
import type { RelyingParty } from './relying-party';

/**
 * Whether an assertion verifies for this credential (with the user verified, where
 * `requireUserVerification`) and counts: its signature counter is recorded with a
 * compare-and-swap on the counter it was verified against, so of two racing uses of one
 * answer only one counts. Every sign-in and unlock with a security key or passkey goes
 * through here; false means refuse, and nothing else was changed.
 */
export async function countedAssertion(
  ctx: Pick<AppContext, 'repos' | 'now'>,
  rp: RelyingParty,
  credential: WebauthnCredentialRow,
  response: Record<string, unknown>,
  challenge: string,
  requireUserVerification: boolean,
): Promise<boolean> {
  const verified = await verifyAssertion(rp, credential, response, challenge, requireUserVerification);
  if (!verified || (requireUserVerification && !verified.userVerified)) return false;
  return ctx.repos.webauthn.recordUse(credential.id, {
    verifiedAgainst: Number(credential.counter),
    counter: verified.counter,
    backedUp: verified.backedUp,
    now: ctx.now(),
  });
}
