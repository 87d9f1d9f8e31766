import { DOCUMENT_LIMITS } from '@lockit/contract';
import { Secret, TOTP, URI } from 'otpauth';

export const TOTP_ALGORITHMS = ['SHA1', 'SHA256', 'SHA512'] as const;
export type TotpAlgorithm = (typeof TOTP_ALGORITHMS)[number];

/**
 * A time-based one-time password seed (RFC 6238), as parseTotpSeed accepts it. Invariants:
 * `secret` is canonical base32 (upper case, no spaces, no padding) of at least one byte,
 * `digits` is 6 to 8, `period` is 1 to 300 seconds.
 */
export interface TotpSeed {
  secret: string;
  algorithm: TotpAlgorithm;
  digits: number;
  period: number;
  issuer?: string;
  label?: string;
}

/** A seed Lockit refuses; `message` is one sentence a person can act on. */
export class TotpSeedError extends Error {
  override name = 'TotpSeedError';
}

const DEFAULTS = { algorithm: 'SHA1', digits: 6, period: 30 } as const;
const MIN_DIGITS = 6;
const MAX_DIGITS = 8;
const MAX_PERIOD = 300;

const SECRET_HINT = 'the letters A to Z and the digits 2 to 7';
const URI_HINT = 'It should look like otpauth://totp/Name?secret=…';

/**
 * Reads what a person pasted or a QR code held: a bare base32 secret (spaces, dashes, lower
 * case and `=` padding tolerated, as sites print them) or a whole `otpauth://totp/…` address.
 * Anything else (a counter-based HOTP address, 5 or 9 digits, an algorithm other than SHA1,
 * SHA256 or SHA512, an empty or non-base32 secret) throws a TotpSeedError saying why, so the
 * form never stores a seed that would show wrong codes.
 */
export function parseTotpSeed(input: string): TotpSeed {
  const text = input.trim();
  if (text === '') throw new TotpSeedError('Enter a TOTP secret or an otpauth:// address.');
  if (text.length > DOCUMENT_LIMITS.totp) {
    throw new TotpSeedError(`This is too long to be a TOTP secret (at most ${DOCUMENT_LIMITS.totp} characters).`);
  }
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text)?.[1]?.toLowerCase();
  if (scheme === undefined) return { secret: parseBase32Secret(text), ...DEFAULTS };
  if (scheme === 'otpauth-migration') {
    throw new TotpSeedError(
      'This is a Google Authenticator export, which can hold several accounts. Add each account’s own QR code or secret instead.',
    );
  }
  if (scheme !== 'otpauth') throw new TotpSeedError(`This is neither a TOTP secret nor an otpauth:// address. ${URI_HINT}`);
  return parseOtpauthUri(text);
}

function parseOtpauthUri(uri: string): TotpSeed {
  if (/^otpauth:\/\/hotp\//i.test(uri)) {
    throw new TotpSeedError('This is a counter-based (HOTP) code. Lockit supports time-based (TOTP) codes only.');
  }
  let parsed: ReturnType<typeof URI.parse>;
  try {
    parsed = URI.parse(uri);
  } catch (error) {
    throw uriError(uri, error);
  }
  if (!(parsed instanceof TOTP)) throw new TotpSeedError(`This otpauth:// address is not a TOTP code. ${URI_HINT}`);
  const algorithm = TOTP_ALGORITHMS.find((name) => name === parsed.algorithm);
  if (algorithm === undefined) throw algorithmError(rawParam(uri, 'algorithm') ?? parsed.algorithm);
  if (parsed.digits < MIN_DIGITS || parsed.digits > MAX_DIGITS) throw digitsError(String(parsed.digits));
  if (parsed.period > MAX_PERIOD) throw periodError(String(parsed.period));
  if (parsed.secret.bytes.length === 0) throw shortSecretError();
  const seed: TotpSeed = { secret: parsed.secret.base32, algorithm, digits: parsed.digits, period: parsed.period };
  if (parsed.issuer !== '') seed.issuer = parsed.issuer;
  if (parsed.label !== '') seed.label = parsed.label;
  return seed;
}

/**
 * otpauth names the parameter it refused in its message; that is the only detail we take
 * from it, and the tests pin each case so a change in its wording shows up there.
 */
function uriError(uri: string, error: unknown): TotpSeedError {
  const message = error instanceof Error ? error.message : '';
  if (/secret/i.test(message)) {
    return rawParam(uri, 'secret') === undefined
      ? new TotpSeedError('This otpauth:// address has no secret.')
      : new TotpSeedError(`The secret in this otpauth:// address is not base32 (${SECRET_HINT}).`);
  }
  if (/algorithm/i.test(message)) return algorithmError(rawParam(uri, 'algorithm') ?? '');
  if (/digits/i.test(message)) return digitsError(rawParam(uri, 'digits') ?? '');
  if (/period/i.test(message)) return periodError(rawParam(uri, 'period') ?? '');
  return new TotpSeedError(`This otpauth:// address could not be read. ${URI_HINT}`);
}

const algorithmError = (value: string) =>
  new TotpSeedError(`The algorithm must be SHA1, SHA256 or SHA512; this address asks for ${JSON.stringify(value)}.`);
const digitsError = (value: string) =>
  new TotpSeedError(`A code must have ${MIN_DIGITS} to ${MAX_DIGITS} digits; this address asks for ${JSON.stringify(value)}.`);
const periodError = (value: string) =>
  new TotpSeedError(`The period must be 1 to ${MAX_PERIOD} seconds; this address asks for ${JSON.stringify(value)}.`);
const shortSecretError = () => new TotpSeedError('The secret is too short: it needs at least two base32 characters.');

/** A query parameter as written in the address, for error messages only. */
function rawParam(uri: string, name: string): string | undefined {
  const query = uri.slice(uri.indexOf('?') + 1);
  for (const pair of query.split('&')) {
    const [key = '', value = ''] = pair.split(/=(.*)/s, 2);
    if (key.toLowerCase() === name) {
      try {
        return decodeURIComponent(value);
      } catch {
        return value;
      }
    }
  }
  return undefined;
}

/**
 * A bare secret as sites print it ("jbsw y3dp-ehpk 3pxp====") to canonical base32. Secrets
 * shorter than the 80 bits RFC 4226 asks for are accepted: some services still issue them,
 * and refusing would only leave the person without their codes.
 */
function parseBase32Secret(text: string): string {
  const cleaned = text.replace(/[\s-]/g, '').replace(/=+$/, '').toUpperCase();
  const stray = /[^A-Z2-7]/.exec(cleaned)?.[0];
  if (stray !== undefined) {
    throw new TotpSeedError(`The secret contains ${JSON.stringify(stray)}, which is not base32 (${SECRET_HINT}).`);
  }
  const secret = Secret.fromBase32(cleaned);
  if (secret.bytes.length === 0) throw shortSecretError();
  // Re-encoding drops the unused bits of the last character, so equal keys compare equal.
  return secret.base32;
}

function generator(seed: TotpSeed): TOTP {
  return new TOTP({
    secret: Secret.fromBase32(seed.secret),
    algorithm: seed.algorithm,
    digits: seed.digits,
    period: seed.period,
    issuer: seed.issuer ?? '',
    // The key URI format needs a label; a seed without one is named after its issuer.
    label: seed.label ?? seed.issuer ?? 'TOTP',
  });
}

/** The code valid at `atMs` (milliseconds since the epoch), zero-padded to `digits`. */
export function totpCode(seed: TotpSeed, atMs: number): string {
  return generator(seed).generate({ timestamp: atMs });
}

/** Whole seconds until the code shown at `atMs` changes: `period` right at a step, 1 just before one. */
export function totpRemainingSeconds(seed: TotpSeed, atMs: number): number {
  const periodMs = seed.period * 1000;
  const intoStep = ((atMs % periodMs) + periodMs) % periodMs;
  return Math.ceil((periodMs - intoStep) / 1000);
}

/** The otpauth://totp/ address of a seed, the form Lockit stores; parseTotpSeed reads it back. */
export function totpUri(seed: TotpSeed): string {
  return generator(seed).toString();
}
