import { AgentError } from '../agent-error';
import { findItem } from '../find-items';
import type { LoadedVault } from '../load-vault';
import type { ConfirmKeys } from './confirm-keys';

/**
 * `lockit ssh-confirm`: which SSH keys ask before each use. With `item`, that key (found as
 * every command finds an item, and only among live SSH key items) asks or stops asking; with
 * `all`, every key does or stops; with neither, the choice is only listed. The answer lists the
 * vault's SSH keys and whether each asks now.
 */
export async function sshConfirm(confirmKeys: ConfirmKeys, vault: LoadedVault, args: Record<string, unknown>) {
  const asks = args['asks'] !== false;
  if (typeof args['item'] === 'string') {
    const entry = findItem(vault, args['item'], { type: 'sshKey' });
    if (!entry.sshKey) throw new AgentError('usage', `"${entry.serviceName}" holds no SSH key.`);
    await confirmKeys.set({ fingerprint: entry.sshKey.fingerprint, asks });
  } else if (args['all'] === true) {
    await confirmKeys.set({ all: asks });
  }
  const choices = await confirmKeys.read();
  const keys = vault.entries
    .filter((entry) => entry.type === 'sshKey' && entry.deletedAt === null && entry.sshKey)
    .map((entry) => ({
      id: entry.id,
      name: entry.serviceName,
      fingerprint: entry.sshKey!.fingerprint,
      asks: choices.all || choices.fingerprints.includes(entry.sshKey!.fingerprint),
    }));
  return { all: choices.all, keys };
}
