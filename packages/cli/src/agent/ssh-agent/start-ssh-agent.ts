import { join } from 'node:path';
import type { AgentPaths } from '../../shared/agent-paths.js';
import { listenSshAgent } from './ssh-agent-server';
import { sshUseLog } from './use-log';
import type { VaultSshKey } from './vault-ssh-keys';

/**
 * `lockit ssh-agent`'s side in the agent process: the SSH agent's socket is opened on the first
 * request and kept until the agent stops; later requests answer the same path.
 */
export function sshAgentStarter(paths: AgentPaths, keys: () => Promise<VaultSshKey[]>) {
  const socket = join(paths.runtimeDir, 'ssh-agent.sock');
  let started: ReturnType<typeof listenSshAgent> | null = null;
  return {
    start: async (): Promise<{ socket: string }> => {
      started ??= listenSshAgent({
        socket,
        folder: paths.runtimeDir,
        keys,
        used: sshUseLog(join(paths.stateDir, 'ssh-agent.log')),
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
