import { beforeAll, describe, expect, it } from 'vitest';
import { databaseKind, runProgram, type CliHome } from './support/cli-against-server';
import { useCliServer } from './support/use-cli-server';

const suite = useCliServer();

let cli: CliHome;

beforeAll(async () => {
  ({ cli } = await suite.signedIn([
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

describe(`git credential fill answered by lockit (${databaseKind})`, () => {
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
