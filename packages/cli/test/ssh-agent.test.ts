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

  it('logs the requesting process with each signature (ssh-keygen here, and what ran it)', async () => {
    const log = await readFile(join(home.stateDir, 'ssh-agent.log'), 'utf8');
    const uses = log
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { outcome: string; asked: boolean; process: { name: string; pid: number } | null });
    expect(uses.length).toBeGreaterThanOrEqual(2);
    for (const use of uses) {
      expect(use).toMatchObject({ outcome: 'signed', asked: false, process: { name: 'ssh-keygen' } });
      expect(use.process!.pid).toBeGreaterThan(1);
    }
  });

  it('asks through SSH_ASKPASS before each use of a key chosen with lockit ssh-confirm: no refuses, yes signs, other keys do not ask', async () => {
    const answerFile = join(work, 'askpass-answer');
    const askedFile = join(work, 'askpass-asked');
    const askpass = join(work, 'askpass');
    // The person's answer is the exit status, as ssh-askpass's buttons give it.
    await writeFile(
      askpass,
      `#!/bin/sh\nprintf '%s\\n%s' "$SSH_ASKPASS_PROMPT" "$1" > '${askedFile}'\nexit $(cat '${answerFile}')\n`,
      { mode: 0o700 },
    );
    expect((await home.run(['ssh-agent'], { env: { SSH_ASKPASS: askpass } })).code).toBe(0);

    const chosen = await home.run(['ssh-confirm', 'Ed key', '--json']);
    expect(chosen.code, chosen.stderr).toBe(0);
    const listed = JSON.parse(chosen.stdout) as { all: boolean; keys: { name: string; asks: boolean }[] };
    expect(listed.all).toBe(false);
    expect(listed.keys.map((key) => [key.name, key.asks]).sort()).toEqual([
      ['Ed key', true],
      ['RSA key', false],
    ]);

    await writeFile(answerFile, '1');
    expect((await signAndVerify('asked-no', keys.ed25519.publicKey)).signed.code).not.toBe(0);
    const asked = await readFile(askedFile, 'utf8');
    expect(asked).toMatch(
      /^confirm\nAllow use of key deploy ed25519\?\nKey fingerprint SHA256:\S+\.\nRequested by ssh-keygen \(pid \d+/,
    );

    await writeFile(answerFile, '0');
    const yes = await signAndVerify('asked-yes', keys.ed25519.publicKey);
    expect(yes.signed.code, yes.signed.stderr).toBe(0);
    expect(yes.verified?.code).toBe(0);

    await rm(askedFile);
    await writeFile(answerFile, '1');
    expect((await signAndVerify('rsa-not-asked', keys.rsa.publicKey)).signed.code).toBe(0);
    await expect(stat(askedFile)).rejects.toThrow();

    const log = (await readFile(join(home.stateDir, 'ssh-agent.log'), 'utf8')).trim().split('\n');
    const last = log.slice(-3).map((line) => JSON.parse(line) as { outcome: string; asked: boolean });
    expect(last.map((use) => [use.outcome, use.asked])).toEqual([
      ['refused', true],
      ['signed', true],
      ['signed', false],
    ]);

    expect((await home.run(['ssh-confirm', 'Ed key', '--off'])).code).toBe(0);
    expect((await signAndVerify('not-asked-again', keys.ed25519.publicKey)).signed.code).toBe(0);
  });

  it('lockit ssh-confirm --all makes every key ask until --all --off, and takes only SSH key items', async () => {
    const all = await home.run(['ssh-confirm', '--all']);
    expect(all.code).toBe(0);
    expect(all.stdout).toMatch(/^Every SSH key asks before each use\.\nasks/);
    expect((await signAndVerify('all-refused', keys.rsa.publicKey)).signed.code).not.toBe(0);
    expect((await home.run(['ssh-confirm', '--all', '--off'])).code).toBe(0);
    expect((await signAndVerify('all-off', keys.rsa.publicKey)).signed.code).toBe(0);

    const login = await home.run(['ssh-confirm', 'A login']);
    expect(login.code).not.toBe(0);
    expect(login.stderr).toContain('No item matches "A login"');
    expect((await home.run(['ssh-confirm', '--off'])).code).not.toBe(0);
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
