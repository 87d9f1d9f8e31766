import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { agentPaths, privateFolder } from '../shared/agent-paths.js';
import { Agent } from './agent';
import { AgentSession } from './agent-session';
import { FileKeyValueStore } from './file-store';
import { listen } from './socket-server';
import { sshAgentStarter } from './ssh-agent/start-ssh-agent';

/**
 * The agent process: started by the thin client on demand (detached, no terminal), it holds the
 * session and the vault's keys in memory and answers on its socket until `lockit logout`, a
 * signal, or the idle exit after the session is gone. It takes no secret from its arguments or
 * environment: the master password reaches it only over the socket.
 */
const paths = agentPaths();
await privateFolder(paths.stateDir);
const session = new AgentSession(new FileKeyValueStore(join(paths.stateDir, 'device-memory.json')));
let closing: (() => Promise<void>) | null = null;
const ssh = sshAgentStarter(paths, () => agent.sshKeys());
const stop = () => {
  session.forget();
  void Promise.all([closing ? closing() : undefined, ssh.close()]).finally(() => process.exit(0));
};
const agent: Agent = new Agent({
  session,
  rememberLogin: async (server, username) => {
    await writeFile(join(paths.stateDir, 'login.json'), JSON.stringify({ server, username }), { mode: 0o600 });
  },
  stop,
  startSshAgent: ssh.start,
  sshConfirmKeys: ssh.confirmKeys,
});
const { close } = await listen(paths, (command, args) => agent.handle(command, args));
closing = close;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, stop);
// An agent with no session (never signed in, a failed login, `lockit generate`, a session ended
// on the server) holds nothing worth keeping: it stops after ten minutes without a command.
const NO_SESSION_EXIT_MS = 10 * 60 * 1000;
setInterval(() => {
  if (!session.signedIn && Date.now() - agent.lastUsed > NO_SESSION_EXIT_MS) stop();
}, 60_000).unref();
// The thin client reads this line on the agent's stdout (when it waits for it) to know it is up.
process.stdout.write('ready\n');
// The client stops reading once the agent is up: later writes must not kill it with EPIPE.
process.stdout.on('error', () => undefined);
process.stderr.on('error', () => undefined);
