import { appendFile } from 'node:fs/promises';
import type { SshKeyUse } from './ssh-agent-server';

/**
 * Appends each signature the SSH agent makes to a log in the state folder (0600): when, which key
 * (its fingerprint only: item names are vault content and stay in memory), which algorithm. Node
 * cannot ask the kernel which process is at the other end of a Unix socket (no SO_PEERCRED), so
 * the requesting process is not logged. A log that cannot be written does not stop a signature.
 */
export function sshUseLog(file: string): (use: SshKeyUse) => void {
  let queue = Promise.resolve();
  return (use) => {
    queue = queue.then(() => appendFile(file, `${JSON.stringify(use)}\n`, { mode: 0o600 })).catch(() => undefined);
  };
}
