import { Secret, TOTP } from 'otpauth';

const PERIOD_SECONDS = 30;

function totpOf(secretBase32: string, label = 'Lockit'): TOTP {
  return new TOTP({
    issuer: 'Lockit',
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** A new TOTP seed: 160 random bits (RFC 4226's recommended length), base32 as apps take it typed. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// URI for the QR code: issuer Lockit, labelled with the user name. */
export function totpUri(secretBase32: string, username: string): string {
  return totpOf(secretBase32, username).toString();
}

/**
 * The time step a code belongs to, or undefined when it matches none. The codes of the
 * current step and of one step either side are accepted (one step of clock drift); callers
 * must still refuse a step not later than the last one used (replay).
 */
export function matchTotpStep(secretBase32: string, code: string, now: number): number | undefined {
  const delta = totpOf(secretBase32).validate({ token: code, timestamp: now, window: 1 });
  if (delta === null) return undefined;
  return Math.floor(now / 1000 / PERIOD_SECONDS) + delta;
}
