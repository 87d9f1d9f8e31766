import { chmod, rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import ssh2 from 'ssh2';
import { checkSocket, privateFolder } from '../../shared/agent-paths.js';
import { peerProcess, type PeerProcess } from './peer-process';
import { signatureHash, type VaultSshKey } from './vault-ssh-keys';

/**
 * One use of a key, for the use log: no item name, nothing of the vault but the key's
 * fingerprint. `outcome` is "signed", or "refused" when the person said no (or did not answer)
 * to a key that asks before each use; `asked` says whether they were asked.
 */
export interface SshKeyUse {
  at: string;
  fingerprint: string;
  algorithm: string;
  outcome: 'signed' | 'refused';
  asked: boolean;
  /** The requesting process, where the system tells it. */
  process: PeerProcess | null;
}

/** Whether a use may go on: not asked (the key does not ask), or the person's answer. */
export type UseDecision = 'not asked' | 'allowed' | 'refused';

export interface SshAgentOptions {
  /** The socket's path, inside the agent's 0700 runtime folder. */
  socket: string;
  folder: string;
  /** The vault's SSH keys now; rejects while the vault is locked or the session is gone. */
  keys: () => Promise<VaultSshKey[]>;
  /** Told of each signature made or refused (the use log); the answer waits until it is written. */
  used: (use: SshKeyUse) => Promise<void>;
  /** Asks the person before a key that asks for it is used; absent, no key asks. */
  decide?: (key: VaultSshKey, requester: PeerProcess | null) => Promise<UseDecision>;
}

/**
 * An SSH agent (the ssh-agent protocol, draft-miller-ssh-agent) on its own Unix socket, in the
 * same process as the lockit agent, whose open vault is its only source of keys.
 *
 * The framing is ssh2's AgentProtocol (server mode), a kept library that answers every message
 * it does not know, and every add, remove, lock or extension request, with SSH_AGENT_FAILURE:
 * keys come from the vault and from nowhere else.
 *
 * Security invariants:
 * - The socket is made under umask 077, set to 0600 and checked, inside the runtime folder that
 *   must be this user's and 0700 (as the lockit agent's own socket, decision 0067).
 * - Private keys are opened from the vault for each request and dropped with it; a locked vault
 *   or an ended session answers SSH_AGENT_FAILURE (no key listed, nothing signed), and no error
 *   of a request ever stops the process.
 * - A signature is made only with a key the vault holds now, matched by its whole public blob.
 * - A key that asks before each use signs only after the person's yes to this very request.
 */
export async function listenSshAgent(options: SshAgentOptions): Promise<{ server: Server; close: () => Promise<void> }> {
  await privateFolder(options.folder);
  await rm(options.socket, { force: true });
  const server = createServer((socket) => serve(socket, options));
  process.umask(0o077);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.socket, () => resolve());
  });
  await chmod(options.socket, 0o600);
  await checkSocket(options.socket);
  return {
    server,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(options.socket, { force: true });
    },
  };
}

function serve(socket: Socket, options: SshAgentOptions): void {
  const protocol = new ssh2.AgentProtocol(false);
  socket.pipe(protocol).pipe(socket);
  const fail = () => socket.destroy();
  socket.on('error', fail);
  protocol.on('error', fail);

  protocol.on('identities', (request) => {
    options.keys().then(
      (keys) =>
        protocol.getIdentitiesReply(
          request,
          keys.map((entry) => entry.key),
        ),
      () => protocol.failureReply(request),
    );
  });

  // Asked once per connection, on its first signature: who is at the other end.
  let requester: Promise<PeerProcess | null> | null = null;
  protocol.on('sign', (request, publicKey, data, flags) => {
    const wanted = publicKey.getPublicSSH();
    options
      .keys()
      .then(async (keys) => {
        const found = keys.find((entry) => entry.key.getPublicSSH().equals(wanted));
        if (!found) return protocol.failureReply(request);
        const hash = signatureHash(found.key, flags.hash);
        if (hash === null) return protocol.failureReply(request);
        const requesting = await (requester ??= peerProcess(socket));
        const decision = options.decide ? await options.decide(found, requesting) : 'not asked';
        const use = {
          at: new Date().toISOString(),
          fingerprint: found.fingerprint,
          algorithm: found.key.type === 'ssh-rsa' ? `rsa-${hash}` : found.key.type,
          asked: decision !== 'not asked',
          process: requesting,
        };
        if (decision === 'refused') {
          await options.used({ ...use, outcome: 'refused' });
          return protocol.failureReply(request);
        }
        const signature = found.key.sign(data, hash);
        if (signature instanceof Error) return protocol.failureReply(request);
        await options.used({ ...use, outcome: 'signed' });
        return protocol.signReply(request, signature);
      })
      .catch(() => protocol.failureReply(request));
  });
}
