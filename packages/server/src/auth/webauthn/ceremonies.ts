import { z } from 'zod';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { WebauthnCredentialRow } from '../../db/repositories/webauthn-repository';
import type { RelyingParty } from './relying-party';

/** How long a ceremony's challenge works: registration and passkey sign-in alike. */
export const CHALLENGE_LIFETIME_MS = 5 * 60_000;
/** What the browser is told to wait for the authenticator (the challenge outlives it). */
const CEREMONY_TIMEOUT_MS = 2 * 60_000;

const base64url = z.string().regex(/^[A-Za-z0-9_-]+$/, 'must be base64url');

/**
 * The parts of an authenticator's answer we read before verification: its credential id.
 * The rest is checked in full by @simplewebauthn/server.
 */
const credentialResponseSchema = z.object({ id: base64url.max(1366, 'is too long'), type: z.literal('public-key') });

/** The credential id an answer names, or undefined when it is not shaped like an answer. */
export function credentialIdOf(response: Record<string, unknown>): string | undefined {
  const parsed = credentialResponseSchema.safeParse(response);
  return parsed.success ? parsed.data.id : undefined;
}

/** The userHandle a discoverable credential returned (base64url), if any. */
export function userHandleOf(response: Record<string, unknown>): string | undefined {
  const parsed = z.object({ response: z.object({ userHandle: base64url.optional() }) }).safeParse(response);
  return parsed.success ? parsed.data.response.userHandle : undefined;
}

/** The WebAuthn user handle of an account: its id's bytes (stable, not personal data). */
export function userHandleFor(userId: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(userId, 'utf8'));
}

export interface RegistrationSubject {
  id: string;
  username: string;
  fullname: string;
}

/**
 * Creation options. A passkey must be discoverable and verify its user (so that on its own it
 * is two factors); a security key is a second factor beside the password, so neither is asked.
 * The user's credentials are excluded, so an authenticator is never registered twice.
 */
export function registrationOptions(
  rp: RelyingParty,
  user: RegistrationSubject,
  existing: readonly WebauthnCredentialRow[],
  passkey: boolean,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  return generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userID: userHandleFor(user.id),
    userName: user.username,
    userDisplayName: user.fullname,
    timeout: CEREMONY_TIMEOUT_MS,
    attestationType: 'none',
    excludeCredentials: existing.map((credential) => ({
      id: credential.credential_id,
      ...transportsOf(credential),
    })),
    authenticatorSelection: passkey
      ? { residentKey: 'required', requireResidentKey: true, userVerification: 'required' }
      : { residentKey: 'discouraged', userVerification: 'preferred' },
  });
}

export interface VerifiedRegistration {
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[] | undefined;
  deviceType: string;
  backedUp: boolean;
}

/** The new credential, or undefined when the answer does not verify (any reason). */
export async function verifyRegistration(
  rp: RelyingParty,
  response: Record<string, unknown>,
  challenge: string,
  requireUserVerification: boolean,
): Promise<VerifiedRegistration | undefined> {
  try {
    const result = await verifyRegistrationResponse({
      response: response as unknown as RegistrationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification,
    });
    if (!result.verified) return undefined;
    const { credential, credentialDeviceType, credentialBackedUp } = result.registrationInfo;
    return {
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: credential.transports,
      deviceType: credentialDeviceType,
      backedUp: credentialBackedUp,
    };
  } catch {
    // @simplewebauthn throws for every refusal (wrong origin, challenge, signature, shape).
    return undefined;
  }
}

/** Request options: for a second factor, the user's credentials; for passkey sign-in, none (discoverable). */
export function authenticationOptions(
  rp: RelyingParty,
  allow: readonly WebauthnCredentialRow[] | undefined,
  userVerification: 'required' | 'discouraged',
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  return generateAuthenticationOptions({
    rpID: rp.id,
    timeout: CEREMONY_TIMEOUT_MS,
    userVerification,
    ...(allow
      ? { allowCredentials: allow.map((credential) => ({ id: credential.credential_id, ...transportsOf(credential) })) }
      : {}),
  });
}

export interface VerifiedAssertion {
  counter: number;
  backedUp: boolean;
  userVerified: boolean;
}

/**
 * The assertion's new counter, or undefined when it does not verify: wrong challenge, origin
 * or RP ID, bad signature, missing user verification when required, or a signature counter
 * that did not move forward (both 0 is allowed: authenticators without a counter).
 */
export async function verifyAssertion(
  rp: RelyingParty,
  credential: WebauthnCredentialRow,
  response: Record<string, unknown>,
  challenge: string,
  requireUserVerification: boolean,
): Promise<VerifiedAssertion | undefined> {
  try {
    const result = await verifyAuthenticationResponse({
      response: response as unknown as AuthenticationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification,
      credential: {
        id: credential.credential_id,
        publicKey: new Uint8Array(Buffer.from(credential.public_key, 'base64url')),
        counter: Number(credential.counter),
      },
    });
    const info = result.authenticationInfo;
    if (!result.verified) return undefined;
    // The library refuses this already; checked again here because it is the replay rule.
    const stored = Number(credential.counter);
    if ((info.newCounter > 0 || stored > 0) && info.newCounter <= stored) return undefined;
    return { counter: info.newCounter, backedUp: info.credentialBackedUp, userVerified: info.userVerified };
  } catch {
    return undefined;
  }
}

function transportsOf(credential: WebauthnCredentialRow): { transports?: string[] } {
  if (credential.transports === null) return {};
  try {
    const parsed = z.array(z.string()).safeParse(JSON.parse(credential.transports));
    return parsed.success ? { transports: parsed.data } : {};
  } catch {
    return {};
  }
}
