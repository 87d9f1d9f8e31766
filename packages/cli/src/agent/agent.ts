import { RevisionMemory, type OpenEntry, type OpenVault } from '@lockit/client-core';
import { parseRef } from '../shared/refs.js';
import { AgentError } from './agent-error';
import type { AgentSession } from './agent-session';
import { generateSecret } from './generate';
import { findItem, searchItems, summary, type ItemFilters } from './find-items';
import { matchCredentials, planStore, type CredentialQuery } from './git-credential';
import { itemField, itemFields, itemTotp } from './item-fields';
import { addItem, editItem, removeItem, restoreItem } from './item-writes';
import { loadVault, type ListedVault, type LoadedVault } from './load-vault';
import { VaultWriter } from './vault-writer';
import type { ConfirmKeys } from './ssh-agent/confirm-keys';
import { sshConfirm } from './ssh-agent/ssh-confirm-command';
import type { AskSettings } from './ssh-agent/start-ssh-agent';
import { vaultSshKeys, type VaultSshKey } from './ssh-agent/vault-ssh-keys';

/** Fifteen minutes without a command locks the vault, as the web app's default. */
export const DEFAULT_IDLE_LOCK_SECONDS = 15 * 60;

type Args = Record<string, unknown>;

export interface AgentOptions {
  session: AgentSession;
  /** Remembers the server and user name (nothing secret) for the next `lockit login`. */
  rememberLogin: (server: string, username: string) => Promise<void>;
  /** Called once the answer to `logout` is sent: the agent stops. */
  stop: () => void;
  /** Opens the SSH agent's socket (once) and says where it is (`lockit ssh-agent`). */
  startSshAgent?: (settings: AskSettings) => Promise<{ socket: string }>;
  /** Which SSH keys ask before each use (`lockit ssh-confirm`). */
  sshConfirmKeys?: ConfirmKeys;
}

/**
 * What the agent does for each command of the thin client. It holds the open vault (keys, and
 * the decrypted overviews and folder names) in memory only, and forgets them on `lock`, on
 * `logout`, when the session ends on the server, and after `idleLockSeconds` without a command
 * (timers are Node's, so tests drive them with fake timers).
 */
export class Agent {
  #idleLockSeconds = DEFAULT_IDLE_LOCK_SECONDS;
  /** Cancels the pending idle lock (with the clearTimeout of the setTimeout that made it). */
  #idleTimer: { cancel: () => void } | null = null;
  #lockedAt: number | null = null;
  #revisions = new RevisionMemory();
  #writer: VaultWriter | null = null;
  /** The last vault loaded, by the unlocked vault it was opened with: answered again on a 304. */
  #listed: { vault: OpenVault; listed: ListedVault } | null = null;

  constructor(private readonly options: AgentOptions) {}

  get session(): AgentSession {
    return this.options.session;
  }

  /** When the last command came (Date.now()). */
  lastUsed = Date.now();

  async handle(command: string, args: Args): Promise<unknown> {
    this.lastUsed = Date.now();
    const answer = await this.#dispatch(command, args);
    this.#touch();
    return answer;
  }

  async #dispatch(command: string, args: Args): Promise<unknown> {
    const { session } = this.options;
    switch (command) {
      case 'status':
        return this.#status();
      case 'login': {
        const server = text(args, 'server');
        const username = text(args, 'username');
        if (args['idleLockSeconds'] !== undefined) this.#idleLockSeconds = seconds(args['idleLockSeconds']);
        this.#forgetVault();
        const { secondFactor } = await session.login(server, username, text(args, 'password'));
        await this.options.rememberLogin(session.info!.server, username);
        return secondFactor ? { secondFactor } : this.#status();
      }
      case 'second-factor': {
        const method = args['method'] === 'recovery' ? 'recovery' : 'totp';
        const { recoveryCodesLeft } = await session.secondFactor(method, text(args, 'code'));
        return { ...this.#status(), recoveryCodesLeft };
      }
      case 'unlock':
        await session.unlock(text(args, 'password'));
        this.#lockedAt = null;
        return this.#status();
      case 'lock':
        this.#lock();
        return this.#status();
      case 'logout':
        await session.logout();
        this.#forgetVault();
        setImmediate(() => this.options.stop());
        return { signedIn: false };
      case 'generate':
        return generateSecret(args);
      case 'sync': {
        const loaded = await this.#vault();
        return { items: loaded.entries.filter((e) => e.deletedAt === null).length, folders: loaded.folders.size };
      }
      case 'list':
      case 'search': {
        const loaded = await this.#vault();
        const query = command === 'search' ? text(args, 'query') : '';
        return searchItems(loaded, query, filtersOf(args)).map((entry) => summary(entry, loaded));
      }
      case 'get': {
        const loaded = await this.#vault();
        const entry = findItem(loaded, text(args, 'item'), filtersOf(args));
        const vaultKey = session.openVault().vaultKey;
        if (typeof args['field'] === 'string') return { value: await itemField(vaultKey, entry, args['field']) };
        return { item: summary(entry, loaded), fields: Object.fromEntries(await itemFields(vaultKey, entry)) };
      }
      case 'totp': {
        const loaded = await this.#vault();
        return itemTotp(session.openVault().vaultKey, findItem(loaded, text(args, 'item')));
      }
      case 'read': {
        const refs = Array.isArray(args['refs']) ? args['refs'].map(String) : [text(args, 'ref')];
        const loaded = await this.#vault();
        const values: string[] = [];
        for (const ref of refs) values.push(await this.#resolve(loaded, ref));
        return { values };
      }
      case 'credential': {
        const loaded = await this.#vault();
        const [match] = matchCredentials(loaded.entries, {
          protocol: optionalText(args, 'protocol'),
          host: optionalText(args, 'host'),
          path: optionalText(args, 'path'),
          username: optionalText(args, 'username'),
        });
        if (!match) return { found: false };
        return {
          found: true,
          username: match.username,
          password: await itemField(session.openVault().vaultKey, match, 'password'),
        };
      }
      case 'add':
        return addItem(this.#writes(), await this.#vault(), args);
      case 'edit':
        return editItem(this.#writes(), await this.#vault(), args);
      case 'rm':
        return removeItem(this.#writes(), await this.#vault(), args);
      case 'restore':
        return restoreItem(this.#writes(), await this.#vault(), args);
      case 'credential-store':
        return this.#credentialStore(args);
      case 'credential-erase':
        return this.#credentialErase(args);
      case 'ssh-agent':
        if (!this.options.startSshAgent) throw new AgentError('usage', 'This agent serves no SSH keys.');
        session.api();
        return this.options.startSshAgent({
          askpass: optionalText(args, 'askpass') ?? null,
          display: optionalText(args, 'display') ?? null,
          waylandDisplay: optionalText(args, 'waylandDisplay') ?? null,
        });
      case 'ssh-confirm':
        if (!this.options.sshConfirmKeys) throw new AgentError('usage', 'This agent serves no SSH keys.');
        return sshConfirm(this.options.sshConfirmKeys, await this.#vault(), args);
      default:
        throw new AgentError('usage', `Unknown command "${command}".`);
    }
  }

  /**
   * git's `store`: what it would do (`apply` false: the thin client asks the person or reads the
   * setting first), or does it. The plan is made again from a fresh fetch when applied.
   */
  async #credentialStore(args: Args) {
    const query = credentialOf(args);
    const loaded = await this.#vault();
    const vaultKey = this.options.session.openVault().vaultKey;
    const passwords = new Map<string, string>();
    for (const entry of matchCredentials(loaded.entries, query))
      passwords.set(entry.id, await itemField(vaultKey, entry, 'password'));
    const plan = planStore(loaded.entries, query, passwords);
    if (plan.action === 'none') return plan;
    const name = plan.action === 'add' ? plan.name : plan.entry.serviceName;
    if (args['apply'] !== true) return { action: plan.action, name };
    const secrets = { password: query.password };
    const written =
      plan.action === 'add'
        ? await addItem(this.#writes(), loaded, { type: 'login', name, username: query.username, urls: [plan.url], secrets })
        : await editItem(this.#writes(), loaded, { item: plan.entry.id, secrets });
    return { action: plan.action, ...written };
  }

  /**
   * git's `erase` (a credential was refused), applied only when the person chose so: the one
   * login whose user name and password are exactly the refused ones goes to Trash.
   */
  async #credentialErase(args: Args) {
    const query = credentialOf(args);
    const loaded = await this.#vault();
    const vaultKey = this.options.session.openVault().vaultKey;
    const refused: OpenEntry[] = [];
    for (const entry of matchCredentials(loaded.entries, query)) {
      if ((await itemField(vaultKey, entry, 'password')) === query.password) refused.push(entry);
    }
    if (refused.length !== 1) return { action: 'none', reason: `${refused.length} logins hold that credential` };
    return { action: 'trash', ...(await removeItem(this.#writes(), loaded, { item: refused[0]!.id })) };
  }

  /** The client core's writes for the vault open now (a new one after each unlock). */
  #writes(): VaultWriter {
    const { session } = this.options;
    const vault = session.openVault();
    if (this.#writer?.vault !== vault) this.#writer = new VaultWriter(vault, session, this.#revisions);
    return this.#writer;
  }

  /** The vault's SSH keys, opened now, for the SSH agent's socket; rejects while locked. */
  async sshKeys(): Promise<VaultSshKey[]> {
    const loaded = await this.#vault();
    return vaultSshKeys(this.options.session.openVault().vaultKey, loaded.entries);
  }

  async #resolve(loaded: LoadedVault, text: string): Promise<string> {
    let ref;
    try {
      ref = parseRef(text);
    } catch (error) {
      throw new AgentError('usage', (error as Error).message);
    }
    const entry: OpenEntry = findItem(loaded, ref.item, ref.folder === null ? {} : { folder: ref.folder });
    return itemField(this.options.session.openVault().vaultKey, entry, ref.field);
  }

  /**
   * The vault's overviews, fetched and checked again for every command: a session ended elsewhere
   * stops the next command, and nothing is answered from a list older than the server's.
   */
  async #vault(): Promise<LoadedVault> {
    const { session } = this.options;
    const vault = session.openVault();
    // What was loaded under another vault key (a lock and unlock, another account) is never reused.
    const previous = this.#listed?.vault === vault ? this.#listed.listed : null;
    const listed = await session.call((api) => loadVault(api, vault, session.memory, this.#revisions, previous));
    if (session.vault !== vault) throw new AgentError('locked', 'The vault was locked meanwhile. Run: lockit unlock');
    this.#listed = { vault, listed };
    return listed.loaded;
  }

  #status() {
    const { session } = this.options;
    return {
      signedIn: session.signedIn,
      locked: session.signedIn && session.vault === null,
      server: session.info?.server ?? null,
      username: session.info?.username ?? null,
      idleLockSeconds: this.#idleLockSeconds,
      lockedAt: this.#lockedAt === null ? null : new Date(this.#lockedAt).toISOString(),
    };
  }

  #touch(): void {
    this.#idleTimer?.cancel();
    this.#idleTimer = null;
    if (this.options.session.vault === null || this.#idleLockSeconds <= 0) return;
    const clear = clearTimeout;
    const handle = setTimeout(() => this.#lock(), this.#idleLockSeconds * 1000);
    handle.unref?.();
    this.#idleTimer = { cancel: () => clear(handle) };
  }

  #lock(): void {
    if (this.options.session.vault !== null) this.#lockedAt = Date.now();
    this.options.session.lock();
    this.#forgetVault();
  }

  #forgetVault(): void {
    this.#revisions = new RevisionMemory();
    this.#writer = null;
    this.#listed = null;
    this.#idleTimer?.cancel();
    this.#idleTimer = null;
  }
}

function text(args: Args, name: string): string {
  const value = args[name];
  if (typeof value !== 'string' || value === '') throw new AgentError('usage', `Missing ${name}.`);
  return value;
}

function optionalText(args: Args, name: string): string | undefined {
  const value = args[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** git's attributes for store and erase: every one of them is needed to match and to save. */
function credentialOf(args: Args): CredentialQuery & { protocol: string; host: string; username: string; password: string } {
  const path = optionalText(args, 'path');
  return {
    protocol: text(args, 'protocol'),
    host: text(args, 'host'),
    ...(path === undefined ? {} : { path }),
    username: text(args, 'username'),
    password: text(args, 'password'),
  };
}

function seconds(value: unknown): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0 || number > 7 * 24 * 3600) {
    throw new AgentError('usage', 'The idle lock is a whole number of seconds, 0 (never) to one week.');
  }
  return number;
}

function filtersOf(args: Args): ItemFilters {
  return {
    type: optionalText(args, 'type'),
    folder: optionalText(args, 'folder'),
    tag: optionalText(args, 'tag'),
    trash: args['trash'] === true,
  };
}
