import { routeTable } from '@lockit/contract/routes';
import { deriveKeysFromPassword } from '@lockit/crypto';
import {
  ApiClient,
  ApiError,
  DeviceMemory,
  NetworkError,
  openVaultKeys,
  PendingSecondFactor,
  SecondFactorExpiredError,
  SecondFactorInputError,
  signIn,
  unlockWithPassword,
  UnexpectedResponseError,
  VaultUnlockError,
  WrongMasterPasswordError,
  type KeyPlatform,
  type OpenVault,
} from '@lockit/client-core';
import { KdfParamsRejectedError } from '@lockit/crypto';
import { AgentError } from './agent-error';
import { CookieTransport } from './cookie-transport';
import type { KeyValueStore } from '@lockit/client-core';

export interface SessionInfo {
  server: string;
  username: string;
}

/**
 * One signed-in device: the session's cookies, the pending second step, and the open vault's
 * keys, all in this process's memory only.
 *
 * Security invariants:
 * - The master password is passed to the core's signIn / unlockWithPassword and dropped; the
 *   vault key and integrity key are non-extractable CryptoKeys (openVaultKeys), forgotten by
 *   `lock()`.
 * - A 401 that a refresh cannot answer means the server ended this session (sign-out elsewhere,
 *   "end session" in the sessions list, a password change): everything is forgotten at once and
 *   the caller is told to sign in again.
 * - Every trust rule (KDF floor, key generation, epoch, the typed account) is the core's.
 */
export class AgentSession {
  readonly #cookies = new CookieTransport();
  readonly #memory: DeviceMemory;
  #info: SessionInfo | null = null;
  #api: ApiClient | null = null;
  #pending: PendingSecondFactor<OpenVault> | null = null;
  #vault: OpenVault | null = null;
  #signedIn = false;

  constructor(store: KeyValueStore) {
    this.#memory = new DeviceMemory(store);
  }

  get info(): SessionInfo | null {
    return this.#info;
  }
  get signedIn(): boolean {
    return this.#signedIn;
  }
  get vault(): OpenVault | null {
    return this.#vault;
  }
  get memory(): DeviceMemory {
    return this.#memory;
  }

  /** The API client of the live session; AgentError('loggedOut') when there is none. */
  api(): ApiClient {
    if (!this.#signedIn || !this.#api) throw new AgentError('loggedOut', 'Not signed in. Run: lockit login');
    return this.#api;
  }

  /** The open vault; AgentError('locked') while locked. */
  openVault(): OpenVault {
    this.api();
    if (!this.#vault) throw new AgentError('locked', 'The vault is locked. Run: lockit unlock');
    return this.#vault;
  }

  async login(server: string, username: string, password: string): Promise<{ secondFactor: readonly string[] | null }> {
    this.forget();
    const url = serverUrl(server);
    this.#info = { server: url, username };
    this.#api = new ApiClient({ baseUrl: url, transport: this.#cookies.transport, routes: () => routeTable });
    const result = await this.#guard(() => signIn(this.#platform(), username, password));
    if (result.kind === 'second-factor') {
      this.#pending = result.pending;
      return { secondFactor: result.pending.methods };
    }
    this.#signedIn = true;
    this.#vault = result.vault;
    return { secondFactor: null };
  }

  async secondFactor(method: 'totp' | 'recovery', code: string): Promise<{ recoveryCodesLeft: number | undefined }> {
    const pending = this.#pending;
    if (!pending) throw new AgentError('loggedOut', 'No sign-in is waiting for a code. Run: lockit login');
    const opened = await this.#guard(() => pending.withCode(method, code, false));
    this.#pending = null;
    this.#signedIn = true;
    this.#vault = opened.vault;
    return { recoveryCodesLeft: opened.recoveryCodesLeft };
  }

  async unlock(password: string): Promise<void> {
    this.api();
    const username = this.#info?.username ?? '';
    this.#vault = await this.#guard(() => unlockWithPassword(this.#platform(), password, username));
  }

  /** Forgets the vault's keys; the session stays. */
  lock(): void {
    this.#vault = null;
  }

  /** Ends the session on the server (best effort) and forgets everything. */
  async logout(): Promise<void> {
    if (this.#api && this.#signedIn) {
      try {
        await this.#api.call('logout', {});
      } catch {
        // Already ended, or the server is away: the cookies are forgotten either way.
      }
    }
    this.forget();
  }

  forget(): void {
    this.#pending?.discard();
    this.#pending = null;
    this.#vault = null;
    this.#signedIn = false;
    this.#cookies.clear();
  }

  /** Runs a call of the live session; turns the core's errors into the agent's. */
  async call<T>(work: (api: ApiClient) => Promise<T>): Promise<T> {
    const api = this.api();
    return this.#guard(() => work(api));
  }

  #platform(): KeyPlatform<OpenVault> {
    return {
      api: this.#api!,
      memory: this.#memory,
      derive: deriveKeysFromPassword,
      device: () => ({ mobile: false }),
      open: openVaultKeys,
    };
  }

  async #guard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw this.#translate(error);
    }
  }

  #translate(error: unknown): Error {
    if (error instanceof AgentError) return error;
    if (error instanceof ApiError) {
      if (error.status === 401 && this.#signedIn) {
        this.forget();
        return new AgentError('loggedOut', 'Your session has ended (signed out or ended from another device). Run: lockit login');
      }
      return new AgentError('server', error.serverMessage ?? `The server answered ${error.status}.`);
    }
    if (error instanceof NetworkError)
      return new AgentError('server', `Could not reach the server at ${this.#info?.server ?? ''}.`);
    if (error instanceof WrongMasterPasswordError || error instanceof SecondFactorInputError) {
      return new AgentError('server', error.message);
    }
    if (error instanceof SecondFactorExpiredError) {
      this.#pending = null;
      return new AgentError('loggedOut', error.message);
    }
    if (
      error instanceof KdfParamsRejectedError ||
      error instanceof VaultUnlockError ||
      error instanceof UnexpectedResponseError
    ) {
      this.forget();
      return new AgentError('integrity', error.message);
    }
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** The server's origin from what was typed: http(s) only, no path, query or credentials. */
export function serverUrl(typed: string): string {
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(typed) ? typed : `https://${typed}`);
  } catch {
    throw new AgentError('usage', `"${typed}" is not a server address (e.g. https://vault.example.com).`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new AgentError('usage', 'The server address must start with https://.');
  if (url.username || url.password) throw new AgentError('usage', 'The server address must not hold a user name or password.');
  return url.origin;
}
