import {
  recoveryCodeSchema,
  totpCodeSchema,
  type SecondFactorMethod,
  type SecondFactorRequired,
  type SecondFactorResponse,
} from '@lockit/contract';
import {
  browserSupportsWebAuthn,
  startAuthentication,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import { ApiError } from '@/lib/api-errors';
import type { UnlockedVault } from '@/lib/keyring';
import { loginSecondFactor } from '../api/login-second-factor';
import { loginWebauthn } from '../api/login-webauthn';
import { loginWebauthnOptions } from '../api/login-webauthn-options';
import { openVault, type CheckedSignInKeys } from './open-vault';

/** The pending sign-in can no longer be completed (expired, or too many wrong codes): start again. */
export class SecondFactorExpiredError extends Error {
  override readonly name = 'SecondFactorExpiredError';
  constructor(message = 'This sign-in has expired. Sign in again.') {
    super(message);
  }
}

/** What was typed is not a code of that kind; nothing was sent. */
export class SecondFactorInputError extends Error {
  override readonly name = 'SecondFactorInputError';
}

/** The security-key ceremony did not give an answer (cancelled, timed out, refused, unsupported). */
export class SecurityKeyError extends Error {
  override readonly name = 'SecurityKeyError';
}

export const NO_SECURITY_KEY_SUPPORT = 'This browser cannot use security keys. Use another way to sign in.';
const SECURITY_KEY_CANCELLED = 'The security key request was cancelled or timed out. Please try again.';

export interface SecondFactorSignInResult {
  message: string;
  vault: UnlockedVault;
  /** Recovery codes left after one was used; undefined for the other methods. */
  recoveryCodesLeft: number | undefined;
}

/**
 * A sign-in whose password was right and whose account asks for a second factor.
 *
 * Security invariants: the wrapKey derived from the master password stays in this object,
 * in memory only (a non-extractable CryptoKey), and is dropped on success, on expiry and on
 * `discard()`. The vault key is unwrapped with the params checked at prelogin (see
 * openVault), never with anything the second-factor answers carry. The second factor guards
 * only the session: it plays no part in the vault's encryption.
 */
export class PendingSecondFactor {
  readonly methods: readonly SecondFactorMethod[];
  readonly expiresAt: Date;
  readonly #token: string;
  #keys: CheckedSignInKeys | null;

  constructor(challenge: SecondFactorRequired, keys: CheckedSignInKeys) {
    this.methods = challenge.methods;
    this.expiresAt = new Date(challenge.expiresAt);
    this.#token = challenge.token;
    this.#keys = keys;
  }

  get username(): string {
    return this.#keys?.username ?? '';
  }

  /** Forgets the derived key; the pending sign-in can no longer finish here. */
  discard(): void {
    this.#keys = null;
  }

  /** Completes with a 6-digit authenticator code or a recovery code, as typed. */
  async withCode(method: 'totp' | 'recovery', typed: string, remember: boolean): Promise<SecondFactorSignInResult> {
    const parsed = (method === 'totp' ? totpCodeSchema : recoveryCodeSchema).safeParse(typed);
    if (!parsed.success) {
      throw new SecondFactorInputError(
        method === 'totp'
          ? 'Enter the 6-digit code from your authenticator app.'
          : 'Enter a recovery code such as ABCD-EFGH-IJKL-MNOP.',
      );
    }
    const keys = this.#liveKeys();
    const answer = await this.#completing(() => loginSecondFactor({ token: this.#token, method, code: parsed.data, remember }));
    return this.#open(keys, answer);
  }

  /** Completes with a security key: a challenge from the server, the browser's ceremony, the answer back. */
  async withSecurityKey(remember: boolean): Promise<SecondFactorSignInResult> {
    if (!browserSupportsWebAuthn()) throw new SecurityKeyError(NO_SECURITY_KEY_SUPPORT);
    const keys = this.#liveKeys();
    const options = await this.#completing(() => loginWebauthnOptions(this.#token));
    let response: Record<string, unknown>;
    try {
      const optionsJSON = options as unknown as PublicKeyCredentialRequestOptionsJSON;
      response = { ...(await startAuthentication({ optionsJSON })) };
    } catch {
      throw new SecurityKeyError(SECURITY_KEY_CANCELLED);
    }
    const answer = await this.#completing(() => loginWebauthn({ token: this.#token, response, remember }));
    return this.#open(keys, answer);
  }

  #liveKeys(): CheckedSignInKeys {
    if (!this.#keys) throw new SecondFactorExpiredError();
    if (Date.now() >= this.expiresAt.getTime()) {
      this.discard();
      throw new SecondFactorExpiredError();
    }
    return this.#keys;
  }

  /** Turns the server's "this sign-in is over" answers into SecondFactorExpiredError (and forgets the key). */
  async #completing<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (isPendingSignInOver(error)) {
        this.discard();
        throw new SecondFactorExpiredError(error.serverMessage);
      }
      throw error;
    }
  }

  async #open(keys: CheckedSignInKeys, answer: SecondFactorResponse): Promise<SecondFactorSignInResult> {
    this.discard();
    const vault = await openVault(keys, answer.data);
    return { message: answer.message, vault, recoveryCodesLeft: answer.data.recoveryCodesLeft };
  }
}

/**
 * The server ends a pending sign-in for good (expired, unknown, or after too many wrong codes)
 * with 410 Gone; a wrong code is a 401 and the same sign-in may try again.
 */
function isPendingSignInOver(error: unknown): error is ApiError & { serverMessage: string | undefined } {
  return error instanceof ApiError && error.status === 410;
}
