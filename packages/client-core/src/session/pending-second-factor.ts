import { recoveryCodeSchema, totpCodeSchema, type SecondFactorMethod, type SecondFactorRequired } from '@lockit/contract';
import { ApiError } from '../http/api-errors';
import type { KeyPlatform } from '../keys/client-keys';
import { openSignedInVault, type CheckedSignInKeys } from '../keys/open-signed-in-vault';

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

const SECURITY_KEY_CANCELLED = 'The security key request was cancelled or timed out. Please try again.';

/**
 * The platform's WebAuthn ceremony: the server's request options (JSON) in, the authenticator's
 * answer (JSON) out. A page uses the browser's navigator.credentials; it may throw a
 * SecurityKeyError of its own (e.g. no WebAuthn here), which is passed on as it is.
 */
export type SecurityKeyCeremony = (options: Record<string, unknown>) => Promise<Record<string, unknown>>;

export interface SecondFactorSignedIn<V> {
  message: string;
  vault: V;
  /** Recovery codes left after one was used; undefined for the other methods. */
  recoveryCodesLeft: number | undefined;
}

/**
 * A sign-in whose password was right and whose account asks for a second factor.
 *
 * Security invariants: the wrapKey derived from the master password stays in this object, in
 * memory only (a non-extractable CryptoKey), and is dropped on success, on expiry and on
 * `discard()`. The vault key is unwrapped with the params checked at prelogin (see
 * openSignedInVault), never with anything the second-factor answers carry. The second factor
 * guards only the session: it plays no part in the vault's encryption.
 */
export class PendingSecondFactor<V> {
  readonly methods: readonly SecondFactorMethod[];
  readonly expiresAt: Date;
  readonly #token: string;
  readonly #platform: Pick<KeyPlatform<V>, 'api' | 'memory' | 'open' | 'clock'>;
  #keys: CheckedSignInKeys | null;

  constructor(
    platform: Pick<KeyPlatform<V>, 'api' | 'memory' | 'open' | 'clock'>,
    challenge: SecondFactorRequired,
    keys: CheckedSignInKeys,
  ) {
    this.methods = challenge.methods;
    this.expiresAt = new Date(challenge.expiresAt);
    this.#token = challenge.token;
    this.#platform = platform;
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
  async withCode(method: 'totp' | 'recovery', typed: string, remember: boolean): Promise<SecondFactorSignedIn<V>> {
    const parsed = (method === 'totp' ? totpCodeSchema : recoveryCodeSchema).safeParse(typed);
    if (!parsed.success) {
      throw new SecondFactorInputError(
        method === 'totp'
          ? 'Enter the 6-digit code from your authenticator app.'
          : 'Enter a recovery code such as ABCD-EFGH-IJKL-MNOP.',
      );
    }
    const keys = this.#liveKeys();
    const answer = await this.#completing(() =>
      this.#platform.api.call('login-second-factor', { body: { token: this.#token, method, code: parsed.data, remember } }),
    );
    return this.#open(keys, answer);
  }

  /** Completes with a security key: a challenge from the server, the platform's ceremony, the answer back. */
  async withSecurityKey(remember: boolean, ceremony: SecurityKeyCeremony): Promise<SecondFactorSignedIn<V>> {
    const keys = this.#liveKeys();
    const { data } = await this.#completing(() =>
      this.#platform.api.call('login-webauthn-options', { body: { token: this.#token } }),
    );
    let response: Record<string, unknown>;
    try {
      response = await ceremony(data.options);
    } catch (error) {
      if (error instanceof SecurityKeyError) throw error;
      throw new SecurityKeyError(SECURITY_KEY_CANCELLED);
    }
    const answer = await this.#completing(() =>
      this.#platform.api.call('login-webauthn', { body: { token: this.#token, response, remember } }),
    );
    return this.#open(keys, answer);
  }

  #liveKeys(): CheckedSignInKeys {
    if (!this.#keys) throw new SecondFactorExpiredError();
    const now = this.#platform.clock?.() ?? Date.now();
    if (now >= this.expiresAt.getTime()) {
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
      // The server ends a pending sign-in for good (expired, unknown, too many wrong codes)
      // with 410 Gone; a wrong code is a 401 and the same sign-in may try again.
      if (error instanceof ApiError && error.status === 410) {
        this.discard();
        throw new SecondFactorExpiredError(error.serverMessage);
      }
      throw error;
    }
  }

  async #open(
    keys: CheckedSignInKeys,
    answer: {
      message: string;
      data: { username: string; protectedKey: string; userId?: string | undefined; recoveryCodesLeft?: number | undefined };
    },
  ): Promise<SecondFactorSignedIn<V>> {
    this.discard();
    const vault = await openSignedInVault(this.#platform, keys, answer.data);
    return { message: answer.message, vault, recoveryCodesLeft: answer.data.recoveryCodesLeft };
  }
}
