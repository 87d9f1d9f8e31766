import { randomUUID } from 'node:crypto';
import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { routeInput } from '../../http/route-input';
import { requireSession } from '../../auth/require-session';
import { relyingPartyFor } from '../../auth/webauthn/relying-party';
import { verifyRegistration } from '../../auth/webauthn/ceremonies';
import { makeRecoveryCodesIfNone, raiseTwoFactorEpoch } from '../../auth/two-factor/two-factor-changes';
import { HttpError } from '../../http/http-error';
import { WEBAUTHN_MESSAGES } from './webauthn-messages';
import { toWireCredential } from './webauthn-wire';

/**
 * POST /api/user/webauthn/register: verifies the authenticator's answer to the options of
 * register-options (challenge taken once, for this user only; this relying party's origin and
 * RP ID; user verification required when a passkey was asked for) and stores the credential.
 * A new way in raises the two-factor epoch (remembered browsers must pass it) and, with the
 * account's first factor, makes the recovery codes, shown in this answer only.
 */
export const registerWebauthnRoute: RoutePlugin = async (app, { ctx }) => {
  app.post(apiPaths.webauthnRegister, async (request) => {
    const { user } = requireSession(request);
    const { body } = routeInput(request, 'webauthn-register');
    const rp = relyingPartyFor(request, ctx.config);
    const now = ctx.now();
    const purposes = ['register-passkey', 'register-security-key'] as const;
    const challenge = await ctx.repos.webauthn.consumeChallenge(body.challengeId, purposes, user.id, now);
    if (!challenge) throw new HttpError(400, WEBAUTHN_MESSAGES.challengeExpired);
    const passkey = challenge.purpose === 'register-passkey';
    const verified = await verifyRegistration(rp, body.response, challenge.challenge, passkey);
    if (!verified) throw new HttpError(400, WEBAUTHN_MESSAGES.registrationFailed);

    const row = {
      id: randomUUID(),
      user_id: user.id,
      credential_id: verified.credentialId,
      public_key: verified.publicKey,
      counter: verified.counter,
      transports: verified.transports ? JSON.stringify(verified.transports) : null,
      name: body.name,
      device_type: verified.deviceType,
      backed_up: verified.backedUp ? 1 : 0,
      unlock_key: null,
      unlock_salt: null,
      // Only a passkey (user verification required at registration) may later sign in alone.
      signs_in: passkey ? 1 : 0,
      created_at: now,
      last_used_at: null,
    };
    const recoveryCodes = await ctx.db.transaction().execute(async (trx) => {
      if (!(await ctx.repos.webauthn.insert(row, trx))) throw new HttpError(409, WEBAUTHN_MESSAGES.alreadyRegistered);
      await raiseTwoFactorEpoch(ctx, user.id, trx);
      return makeRecoveryCodesIfNone(ctx, user.id, trx);
    });
    return {
      message: passkey ? WEBAUTHN_MESSAGES.registeredPasskey : WEBAUTHN_MESSAGES.registered,
      data: { credential: toWireCredential(row), ...(recoveryCodes ? { recoveryCodes } : {}) },
    };
  });
};
