import { join } from 'node:path';
import type { AgentPaths } from '../../shared/agent-paths.js';
import { ConfirmKeys } from './confirm-keys';
import { confirmUse, type Askpass } from './confirm-use';
import type { PeerProcess } from './peer-process';
import { listenSshAgent, type UseDecision } from './ssh-agent-server';
import { sshUseLog } from './use-log';
import type { VaultSshKey } from './vault-ssh-keys';

/** What `lockit ssh-agent` passes from its shell: how to ask the person (OpenSSH's variables). */
export interface AskSettings {
  askpass?: string | null;
  display?: string | null;
  waylandDisplay?: string | null;
}

/**
 * `lockit ssh-agent`'s side in the agent process: the SSH agent's socket is opened on the first
 * request and kept until the agent stops; later requests answer the same path and update how the
 * person is asked (the askpass program and display of the shell that ran it last).
 */
export function sshAgentStarter(
  paths: AgentPaths,
  keys: () => Promise<VaultSshKey[]>,
  options: { confirmTimeoutMs?: number } = {},
) {
  const socket = join(paths.runtimeDir, 'ssh-agent.sock');
  const confirmKeys = new ConfirmKeys(join(paths.stateDir, 'ssh-confirm.json'));
  let askpass: Askpass = { program: 'ssh-askpass', env: {} };
  let started: ReturnType<typeof listenSshAgent> | null = null;

  const decide = async (key: VaultSshKey, requester: PeerProcess | null): Promise<UseDecision> => {
    if (!(await confirmKeys.asks(key.fingerprint))) return 'not asked';
    const allowed = await confirmUse(askpass, question(key, requester), options.confirmTimeoutMs);
    return allowed ? 'allowed' : 'refused';
  };

  return {
    confirmKeys,
    start: async (settings: AskSettings = {}): Promise<{ socket: string }> => {
      askpass = askpassFrom(settings);
      started ??= listenSshAgent({
        socket,
        folder: paths.runtimeDir,
        keys,
        used: sshUseLog(join(paths.stateDir, 'ssh-agent.log')),
        decide,
      });
      try {
        await started;
      } catch (error) {
        started = null;
        throw error;
      }
      return { socket };
    },
    close: async (): Promise<void> => {
      if (started) await (await started.catch(() => null))?.close();
    },
  };
}

function askpassFrom(settings: AskSettings): Askpass {
  const env: Record<string, string> = {};
  if (settings.display) env['DISPLAY'] = settings.display;
  if (settings.waylandDisplay) env['WAYLAND_DISPLAY'] = settings.waylandDisplay;
  return { program: settings.askpass || 'ssh-askpass', env };
}

/** OpenSSH's wording ("Allow use of key …? Key fingerprint …."), with the requesting process. */
export function question(key: VaultSshKey, requester: PeerProcess | null): string {
  const by = requester
    ? `\nRequested by ${requester.name} (pid ${requester.pid}${requester.parent ? `, run by ${requester.parent}` : ''}).`
    : '';
  return `Allow use of key ${key.key.comment || key.fingerprint}?\nKey fingerprint ${key.fingerprint}.${by}`;
}
