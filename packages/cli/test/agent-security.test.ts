import { spawn } from 'node:child_process';
import { chmod, mkdir, readFile, stat } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { databaseKind, seedVault } from './support/cli-against-server';
import { useCliServer } from './support/use-cli-server';

const suite = useCliServer();

/** One raw request line to the socket; the agent's answer line, or null when it closed first. */
function rawRequest(socket: string, line: string): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const client = connect(socket);
    let answer = '';
    client.on('error', reject);
    client.setEncoding('utf8');
    client.on('data', (chunk: string) => (answer += chunk));
    client.on('close', () => resolve(answer === '' ? null : answer.trim()));
    client.on('connect', () => client.write(`${line}\n`));
    setTimeout(() => client.end(), 2_000);
  });
}

describe(`the agent's socket (${databaseKind})`, () => {
  it('lives in a 0700 folder with the socket and token 0600, and answers only requests that carry the token', async () => {
    const holder = await suite.server.account();
    await seedVault(holder, [{ serviceName: 'GitHub', username: 'octo', password: 'gh-secret-1' }]);
    const cli = await suite.home();
    expect((await cli.login(suite.server.url, holder)).code).toBe(0);
    expect((await stat(cli.runtimeDir)).mode & 0o777).toBe(0o700);
    expect((await stat(join(cli.runtimeDir, 'agent.sock'))).mode & 0o777).toBe(0o600);
    expect((await stat(join(cli.runtimeDir, 'agent.token'))).mode & 0o777).toBe(0o600);

    const socket = join(cli.runtimeDir, 'agent.sock');
    const get = { command: 'get', args: { item: 'GitHub', field: 'password' } };
    const refused = await rawRequest(socket, JSON.stringify({ token: 'not-the-token', ...get }));
    expect(refused).toContain('does not know you');
    expect(refused).not.toContain('gh-secret-1');
    expect(await rawRequest(socket, JSON.stringify(get))).not.toContain('gh-secret-1');

    const token = (await readFile(join(cli.runtimeDir, 'agent.token'), 'utf8')).trim();
    expect(await rawRequest(socket, JSON.stringify({ token, ...get }))).toContain('gh-secret-1');
  });

  // Running a process as another user needs root (CI and this machine run as root).
  it.runIf(process.getuid?.() === 0)(
    "keeps another user's process out: it cannot reach the socket through the 0700 folder",
    async () => {
      const holder = await suite.server.account();
      const cli = await suite.home();
      expect((await cli.login(suite.server.url, holder)).code).toBe(0);
      const socket = join(cli.runtimeDir, 'agent.sock');
      const script = `const s = require('node:net').connect(${JSON.stringify(socket)});
      s.on('connect', () => { console.log('connected'); s.end(); });
      s.on('error', (e) => { console.log(e.code); });`;
      const output = await new Promise<string>((resolve) => {
        const child = spawn(process.execPath, ['-e', script], { uid: 65534, gid: 65534, stdio: ['ignore', 'pipe', 'pipe'] });
        let text = '';
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        child.on('close', () => resolve(text.trim()));
      });
      expect(output).toBe('EACCES');
    },
  );

  it('refuses a runtime folder that other users can reach, and sends nothing through it', async () => {
    const cli = await suite.home();
    await mkdir(cli.runtimeDir, { recursive: true });
    await chmod(cli.runtimeDir, 0o755);
    const holder = await suite.server.account();
    const login = await cli.login(suite.server.url, holder);
    expect(login.code).toBe(9);
    expect(login.stderr).toContain('mode 0755');
    expect((await stat(cli.runtimeDir)).mode & 0o777).toBe(0o755);
  });

  it('refuses a socket whose mode lets others in (a planted or loosened socket)', async () => {
    const holder = await suite.server.account();
    const cli = await suite.home();
    expect((await cli.login(suite.server.url, holder)).code).toBe(0);
    await chmod(join(cli.runtimeDir, 'agent.sock'), 0o666);
    const status = await cli.run(['status']);
    expect(status.code).toBe(9);
    expect(status.stderr).toContain('mode 0666');
    await chmod(join(cli.runtimeDir, 'agent.sock'), 0o600);
  });

  it('puts nothing secret in the agent’s arguments or environment', async () => {
    const holder = await suite.server.account();
    const cli = await suite.home();
    expect((await cli.login(suite.server.url, holder)).code).toBe(0);
    const pid = (await readFile(join(cli.runtimeDir, 'agent.pid'), 'utf8')).trim();
    const [cmdline, environ] = await Promise.all([
      readFile(`/proc/${pid}/cmdline`, 'utf8'),
      readFile(`/proc/${pid}/environ`, 'utf8'),
    ]);
    for (const text of [cmdline, environ]) {
      expect(text).not.toContain(holder.account.password);
      expect(text).not.toContain(holder.account.keys.authKey);
    }
    expect(cmdline).toContain('agent/main.ts');
  });
});
