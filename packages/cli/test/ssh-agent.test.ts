import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { generateEd25519SshKey, parseSshPrivateKey } from '@lockit/client-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cliHome,
  databaseKind,
  runProgram,
  seedVault,
  startCliTestServer,
  type CliHome,
  type CliTestServer,
} from './support/cli-against-server';

/**
 * `lockit ssh-agent` with the real OpenSSH tools: ssh-add lists the vault's keys through it,
 * ssh-keygen -Y sign signs through it and ssh-keygen -Y verify accepts the signatures.
 */
let env: CliTestServer;
let home: CliHome;
let work: string;
let socket: string;
let password: string;
const keys: Record<'ed25519' | 'rsa', { privateKey: string; publicKey: string }> = {} as never;

beforeAll(async () => {
  env = await startCliTestServer();
  work = await mkdtemp(join(tmpdir(), 'cli-ssh-agent-test-'));
  // Ed25519 as the web app makes it (the client core, WebCrypto); RSA as ssh-keygen makes it.
  const ed25519 = await generateEd25519SshKey('made in lockit');
  execFileSync('ssh-keygen', ['-q', '-t', 'rsa', '-b', '2048', '-N', '', '-C', 'rsa@laptop', '-f', join(work, 'id_rsa')]);
  const rsa = await readFile(join(work, 'id_rsa'), 'utf8');
  const holder = await env.account();
  password = holder.account.password;
  await seedVault(holder, [
    { serviceName: 'Ed key', type: 'sshKey', sshKey: { privateKey: ed25519, comment: 'deploy ed25519' } },
    { serviceName: 'RSA key', type: 'sshKey', sshKey: { privateKey: rsa, comment: '' } },
    { serviceName: 'A login', username: 'octo', password: 'not a key' },
  ]);
  keys.ed25519 = { privateKey: ed25519, publicKey: `${publicLine(ed25519)} deploy ed25519` };
  keys.rsa = { privateKey: rsa, publicKey: `${publicLine(rsa)} rsa@laptop` };
  home = await cliHome();
  expect((await home.login(env.url, holder)).code).toBe(0);
  const started = await home.run(['ssh-agent']);
  expect(started.code).toBe(0);
  const printed = /^SSH_AUTH_SOCK=(\S+); export SSH_AUTH_SOCK;\n$/.exec(started.stdout);
  expect(printed).not.toBeNull();
  socket = printed![1]!;
}, 120_000);

afterAll(async () => {
  await home?.dispose();
  await env?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

function publicLine(privateKey: string): string {
  return parseSshPrivateKey(privateKey).publicKey.split(' ').slice(0, 2).join(' ');
}

const ssh = (file: string, args: string[], input?: string) =>
  runProgram(file, args, { env: { ...process.env, SSH_AUTH_SOCK: socket }, input });

/** Signs `message` with the key of `publicKey` through the agent and verifies it with ssh-keygen -Y verify. */
async function signAndVerify(name: string, publicKey: string) {
  const pub = join(work, `${name}.pub`);
  const message = join(work, `${name}.txt`);
  await writeFile(pub, `${publicKey}\n`);
  await writeFile(message, `a commit signed by ${name}\n`);
  const signed = await ssh('ssh-keygen', ['-Y', 'sign', '-n', 'git', '-f', pub, message]);
  if (signed.code !== 0) return { signed, verified: null };
  const signers = join(work, `${name}.signers`);
  await writeFile(signers, `me@example.com ${publicKey}\n`);
  const verified = await ssh(
    'ssh-keygen',
    ['-Y', 'verify', '-f', signers, '-I', 'me@example.com', '-n', 'git', '-s', `${message}.sig`],
    await readFile(message, 'utf8'),
  );
  return { signed, verified };
}

describe(`lockit ssh-agent with OpenSSH (${databaseKind})`, () => {
  it('prints SSH_AUTH_SOCK for the shell, and the same socket as JSON', async () => {
    const json = await home.run(['ssh-agent', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ socket });
  });

  it('serves on a socket of mode 0600 in a folder of mode 0700', async () => {
    expect((await stat(socket)).mode & 0o777).toBe(0o600);
    expect((await stat(dirname(socket))).mode & 0o777).toBe(0o700);
  });

  it("ssh-add -L lists the vault's SSH keys (and nothing of its other items)", async () => {
    const listed = await ssh('ssh-add', ['-L']);
    expect(listed.code).toBe(0);
    expect(listed.stdout.trim().split('\n').sort()).toEqual([keys.ed25519.publicKey, keys.rsa.publicKey].sort());
  });

  it.each(['ed25519', 'rsa'] as const)(
    'ssh-keygen -Y sign signs with the %s key through the agent, and -Y verify accepts it',
    async (name) => {
      const { signed, verified } = await signAndVerify(name, keys[name].publicKey);
      expect(signed.code, signed.stderr).toBe(0);
      expect(verified?.code, verified?.stderr).toBe(0);
      expect(verified?.stdout).toContain('Good "git" signature for me@example.com');
    },
  );

  it('logs each signature with the key fingerprint and no item name', async () => {
    const log = await readFile(join(home.stateDir, 'ssh-agent.log'), 'utf8');
    const uses = log
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, string>);
    expect(uses.map((use) => use['fingerprint'])).toContain(parseSshPrivateKey(keys.ed25519.privateKey).fingerprint);
    expect(uses.map((use) => use['algorithm'])).toContain('rsa-sha512');
    expect(log).not.toContain('Ed key');
  });

  it('refuses to add or remove keys: the vault is their only source', async () => {
    const added = await ssh('ssh-add', [join(work, 'id_rsa')]);
    expect(added.code).not.toBe(0);
    const removed = await ssh('ssh-add', ['-D']);
    expect(removed.code).not.toBe(0);
    expect((await ssh('ssh-add', ['-L'])).stdout.trim().split('\n')).toHaveLength(2);
  });

  it('refuses to list or sign while the vault is locked, and serves again once unlocked', async () => {
    expect((await home.run(['lock'])).code).toBe(0);
    const listed = await ssh('ssh-add', ['-L']);
    expect(listed.code).not.toBe(0);
    expect(listed.stdout).toBe('');
    expect(listed.stderr).toMatch(/agent refused operation|error fetching identities/i);
    const { signed } = await signAndVerify('locked', keys.ed25519.publicKey);
    expect(signed.code).not.toBe(0);
    expect((await home.run(['unlock', '--password-stdin'], { input: `${password}\n` })).code).toBe(0);
    expect((await ssh('ssh-add', ['-L'])).stdout.trim().split('\n')).toHaveLength(2);
  });
});
