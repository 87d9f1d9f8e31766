import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKind, runProgram, type CliHome } from './support/cli-against-server';
import { startGitHttpServer, type GitHttpServer } from './support/git-http-server';
import { useCliServer } from './support/use-cli-server';

const suite = useCliServer();

let cli: CliHome;
let forge: GitHttpServer;
let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'cli-git-http-'));
  forge = await startGitHttpServer(work, 'team-app', { username: 'deploy', password: 'forge-http-token' });
  ({ cli } = await suite.signedIn([
    { serviceName: 'Local forge', username: 'deploy', password: 'forge-http-token', urls: [new URL(forge.url).origin] },
    { serviceName: 'Forge (any repo)', username: 'dev', password: 'forge-any', urls: ['https://git.example.test'] },
    { serviceName: 'Forge acme', username: 'acme-bot', password: 'forge-acme', urls: ['https://git.example.test/acme'] },
    { serviceName: 'Plain http forge', username: 'old', password: 'http-pw', urls: ['http://plain.example.test'] },
  ]));
});

/** `git credential fill` as git runs it, with `credential.helper lockit` (git finds git-credential-lockit on PATH). */
function fill(input: string, config: string[] = []) {
  return runProgram('git', ['-c', 'credential.helper=', '-c', 'credential.helper=lockit', ...config, 'credential', 'fill'], {
    env: { ...cli.env, GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: '', SSH_ASKPASS: '' },
    input,
    cwd: cli.stateDir,
  });
}

afterAll(async () => {
  await forge?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe(`git credential fill answered by lockit (${databaseKind})`, () => {
  it('lets a real git clone over HTTP from a server that asks for Basic credentials, with nothing typed', async () => {
    const gitEnv = { ...cli.env, GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: '', SSH_ASKPASS: '' };
    const without = await runProgram('git', ['-c', 'credential.helper=', 'clone', '-q', forge.url, join(work, 'refused')], {
      env: gitEnv,
      cwd: work,
    });
    expect(without.code).not.toBe(0);
    expect(forge.refusals).toBeGreaterThan(0);
    const cloned = await runProgram(
      'git',
      ['-c', 'credential.helper=', '-c', 'credential.helper=lockit', 'clone', '-q', forge.url, join(work, 'cloned')],
      { env: gitEnv, cwd: work },
    );
    expect(cloned.code, cloned.stderr).toBe(0);
    const log = await runProgram('git', ['log', '--format=%s'], { env: gitEnv, cwd: join(work, 'cloned') });
    expect(log.stdout).toBe('first\n');
  });

  it('answers by host, and by the longest saved path when git sends the path', async () => {
    const byHost = await fill('protocol=https\nhost=git.example.test\n\n');
    expect(byHost.stdout).toContain('password=forge-');
    expect(byHost.code).toBe(0);

    const acme = await fill('protocol=https\nhost=git.example.test\npath=acme/tools.git\n\n', [
      '-c',
      'credential.useHttpPath=true',
    ]);
    expect(acme.stdout).toContain('username=acme-bot\npassword=forge-acme\n');

    const other = await fill('protocol=https\nhost=git.example.test\npath=someone/else.git\n\n', [
      '-c',
      'credential.useHttpPath=true',
    ]);
    expect(other.stdout).toContain('username=dev\npassword=forge-any\n');
  });

  it('keeps to the user name git already has', async () => {
    const named = await fill('protocol=https\nhost=git.example.test\nusername=dev\n\n');
    expect(named.stdout).toContain('username=dev\npassword=forge-any\n');
  });

  it('gives nothing for another host or another scheme, and git then fails without a prompt', async () => {
    const elsewhere = await fill('protocol=https\nhost=evil.example.test\n\n');
    expect(elsewhere.stdout).not.toContain('password=');
    expect(elsewhere.code).not.toBe(0);
    const downgraded = await fill('protocol=http\nhost=git.example.test\n\n');
    expect(downgraded.stdout).not.toContain('forge-');
    const http = await fill('protocol=http\nhost=plain.example.test\n\n');
    expect(http.stdout).toContain('password=http-pw');
  });
});
