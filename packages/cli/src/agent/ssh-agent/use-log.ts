import { appendFile } from 'node:fs/promises';
import type { SshKeyUse } from './ssh-agent-server';

/**
 * Appends each use of a key to a log in the state folder (0600): when, which key (its
 * fingerprint only: item names are vault content and stay in memory), which algorithm, signed or
 * refused, whether the person was asked, and the requesting process where the system tells it
 * (peer-process.ts). The promise settles once the line is written (or could not be), so the
 * SSH agent answers a request only after its use is in the log; a log that cannot be written
 * does not stop a signature.
 */
export function sshUseLog(file: string): (use: SshKeyUse) => Promise<void> {
  let queue = Promise.resolve();
  return (use) => {
    queue = queue.then(() => appendFile(file, `${JSON.stringify(use)}\n`, { mode: 0o600 })).catch(() => undefined);
    return queue;
  };
}
