import { KdfParamsRejectedError } from './errors';

/**
 * Argon2id parameters and the policy the client enforces on them.
 *
 * Security invariant: whatever a server answers, the client derives keys only with
 * parameters inside [floor, ceiling]. The floor stops a KDF downgrade (a hostile server
 * asking for m = 1 MiB, t = 1 to make offline guessing cheap); the ceiling stops a server
 * from freezing or crashing the browser with absurd memory or time.
 */
export interface KdfParams {
  algorithm: 'argon2id';
  /** Memory in KiB (Argon2's m). */
  memoryKiB: number;
  /** Passes (Argon2's t). */
  iterations: number;
  /** Lanes (Argon2's p). */
  parallelism: number;
}

/**
 * The policy's bounds. The floor is Lockit's default (m = 64 MiB, t = 3): sign-up
 * and change password have always used the defaults, so no honest account sits below it, and
 * a server answering less is treated as a downgrade. The ceiling is absolute; a device may
 * run less (see device-kdf-ceiling.ts).
 */
export const KDF_LIMITS = {
  minMemoryKiB: 64 * 1024,
  maxMemoryKiB: 1024 * 1024,
  minIterations: 3,
  maxIterations: 10,
  minParallelism: 1,
  maxParallelism: 16,
} as const;

/**
 * The floor before key generations (m = 19 MiB, t = 2). Accepted only when the caller asks for it
 * with `legacyFloor`, which the web app does for an account THIS browser already used with
 * such params, so it can sign in once and re-wrap under the defaults; never on a new browser.
 */
export const LEGACY_KDF_FLOOR = { minMemoryKiB: 19 * 1024, minIterations: 2 } as const;

export interface KdfCheckOptions {
  /** Accept params down to LEGACY_KDF_FLOOR instead of KDF_LIMITS' floor. */
  legacyFloor?: boolean | undefined;
}

/** Lockit's default: m = 64 MiB, t = 3, p = 4. */
export const DEFAULT_KDF_PARAMS: Readonly<KdfParams> = Object.freeze({
  algorithm: 'argon2id',
  memoryKiB: 64 * 1024,
  iterations: 3,
  parallelism: 4,
});

type Limit = { label: string; unit: string; value: number; min: number; max: number };

const STOPPED = 'Sign-in was stopped to protect your password.';

/**
 * Validates untrusted params (e.g. from prelogin) and returns a clean copy holding only the
 * four known fields. Throws KdfParamsRejectedError with a message a person can read when the
 * shape is wrong (algorithm other than 'argon2id', numbers that are not whole) or a value is
 * outside KDF_LIMITS (or, with `legacyFloor`, below LEGACY_KDF_FLOOR). The message never repeats a string the server chose, only numbers.
 */
export function checkKdfParams(params: unknown, options: KdfCheckOptions = {}): KdfParams {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) {
    throw malformed('The server sent no usable key-derivation settings.');
  }
  const raw = params as Record<string, unknown>;
  if (raw.algorithm !== 'argon2id') {
    throw malformed('The server asked for a key-derivation method Lockit does not use (only Argon2id is allowed).');
  }
  const memoryKiB = wholeNumber(raw.memoryKiB, 'memory');
  const iterations = wholeNumber(raw.iterations, 'passes');
  const parallelism = wholeNumber(raw.parallelism, 'lanes');

  const floor = options.legacyFloor === true ? LEGACY_KDF_FLOOR : KDF_LIMITS;
  const limits: Limit[] = [
    { label: 'memory', unit: ' KiB', value: memoryKiB, min: floor.minMemoryKiB, max: KDF_LIMITS.maxMemoryKiB },
    { label: 'passes', unit: '', value: iterations, min: floor.minIterations, max: KDF_LIMITS.maxIterations },
    { label: 'lanes', unit: '', value: parallelism, min: KDF_LIMITS.minParallelism, max: KDF_LIMITS.maxParallelism },
  ];
  // A value below the floor is reported first: a downgrade is the attack to name.
  const low = limits.filter((l) => l.value < l.min);
  if (low.length > 0) {
    const detail = low.map((l) => `${l.label} ${l.value}${l.unit}, minimum ${l.min}${l.unit}`).join('; ');
    throw new KdfParamsRejectedError(
      'below-floor',
      `The server asked for key-derivation settings weaker than Lockit allows (${detail}). ${STOPPED}`,
    );
  }
  const high = limits.filter((l) => l.value > l.max);
  if (high.length > 0) {
    const detail = high.map((l) => `${l.label} ${l.value}${l.unit}, maximum ${l.max}${l.unit}`).join('; ');
    throw new KdfParamsRejectedError(
      'above-ceiling',
      `The server asked for key-derivation settings heavier than Lockit allows (${detail}), which could freeze or crash this page. Sign-in was stopped.`,
    );
  }
  return { algorithm: 'argon2id', memoryKiB, iterations, parallelism };
}

function wholeNumber(value: unknown, label: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    throw malformed(`The server sent key-derivation settings Lockit cannot read (${label} must be a whole number).`);
  }
  return value;
}

function malformed(sentence: string): KdfParamsRejectedError {
  return new KdfParamsRejectedError('malformed', `${sentence} ${STOPPED}`);
}
