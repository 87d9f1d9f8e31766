import { beforeAll, describe, expect, it } from 'vitest';
import { databaseKind, runProgram, type CliHome } from './support/cli-against-server';
import { useCliServer } from './support/use-cli-server';

const suite = useCliServer();

let cli: CliHome;

beforeAll(async () => {
  ({ cli } = await suite.signedIn([
    { serviceName: 'Forge', username: 'dev', password: 'forge-old', urls: ['https://forge.example.test'] },
    { serviceName: 'Wiki', username: 'editor', password: 'wiki-pw', urls: ['https://wiki.example.test'], notes: 'keep me' },
  ]));
});

/**
 * The real git binary's credential command with `credential.helper lockit` (git runs
 * git-credential-lockit from PATH): fill asks the helpers, approve sends `store` to them (what
 * git does after a credential worked), reject sends `erase` (after the server refused it).
 * Detached: no terminal, as git in a script or CI.
 */
function git(action: 'fill' | 'approve' | 'reject', input: string, config: string[] = []) {
  return runProgram('git', ['-c', 'credential.helper=', '-c', 'credential.helper=lockit', ...config, 'credential', action], {
    env: { ...cli.env, GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: '', SSH_ASKPASS: '' },
    input,
    cwd: cli.stateDir,
    detached: true,
  });
}

async function items() {
  const live = JSON.parse((await cli.run(['list', '--json'])).stdout) as Array<{ id: string; name: string; revision: number }>;
  const trash = JSON.parse((await cli.run(['list', '--trash', '--json'])).stdout) as Array<{ id: string; name: string }>;
  return { live, trash };
}

describe(`git credential approve and reject through lockit (${databaseKind})`, () => {
  it('by default asks before saving, and without a terminal saves nothing and says how', async () => {
    expect((await cli.run(['config', 'git.store', '--json'])).stdout).toBe('{\n  "git.store": "ask"\n}\n');
    const before = await items();
    const approve = await git('approve', 'protocol=https\nhost=new.example.test\nusername=bot\npassword=tok-1\n\n');
    expect(approve.code).toBe(0);
    expect(approve.stderr).toContain('no terminal to ask');
    expect(approve.stderr).toContain('lockit config set git.store always');
    expect(await items()).toEqual(before);
  });

  it('with git.store always, saves a new login that the next fill answers, by path with useHttpPath', async () => {
    expect((await cli.run(['config', 'git.store', 'always'])).code).toBe(0);
    const approve = await git(
      'approve',
      'protocol=https\nhost=new.example.test\npath=team/app.git\nusername=bot\npassword=tok-1\n\n',
      ['-c', 'credential.useHttpPath=true'],
    );
    expect(approve.code).toBe(0);
    expect((await cli.run(['get', 'new.example.test/team/app', 'password'])).stdout).toBe('tok-1\n');
    expect((await cli.run(['get', 'new.example.test/team/app', 'url'])).stdout).toBe('https://new.example.test/team/app\n');
    const fill = await git('fill', 'protocol=https\nhost=new.example.test\npath=team/app.git\n\n', [
      '-c',
      'credential.useHttpPath=true',
    ]);
    expect(fill.stdout).toContain('username=bot\npassword=tok-1\n');
    // Another repository on that host is not answered with this repository's token.
    const other = await git('fill', 'protocol=https\nhost=new.example.test\npath=other/x.git\n\n', [
      '-c',
      'credential.useHttpPath=true',
    ]);
    expect(other.stdout).not.toContain('tok-1');
  });

  it('writes nothing when git stores the credential lockit gave it', async () => {
    const before = await items();
    const fill = await git('fill', 'protocol=https\nhost=forge.example.test\n\n');
    expect(fill.stdout).toContain('password=forge-old');
    expect((await git('approve', fill.stdout + '\n')).code).toBe(0);
    expect(await items()).toEqual(before);
  });

  it('updates the password of the one login that matches the host and user name, keeping the rest', async () => {
    const forge = (await items()).live.find((item) => item.name === 'Forge')!;
    expect((await git('approve', 'protocol=https\nhost=forge.example.test\nusername=dev\npassword=forge-new\n\n')).code).toBe(0);
    expect((await cli.run(['get', 'Forge', 'password'])).stdout).toBe('forge-new\n');
    const after = (await items()).live.find((item) => item.name === 'Forge')!;
    expect(after).toMatchObject({ id: forge.id, revision: forge.revision + 1 });
    // Another user name on the same host is another login.
    expect((await git('approve', 'protocol=https\nhost=forge.example.test\nusername=ci\npassword=ci-token\n\n')).code).toBe(0);
    expect((await cli.run(['get', 'Forge', 'password'])).stdout).toBe('forge-new\n');
    const fill = await git('fill', 'protocol=https\nhost=forge.example.test\nusername=ci\n\n');
    expect(fill.stdout).toContain('password=ci-token');
  });

  it('with git.store never, saves nothing', async () => {
    expect((await cli.run(['config', 'git.store', 'never'])).code).toBe(0);
    const before = await items();
    expect((await git('approve', 'protocol=https\nhost=never.example.test\nusername=x\npassword=y\n\n')).code).toBe(0);
    expect(await items()).toEqual(before);
  });

  it('never deletes on reject by default; with git.erase trash, moves only the login holding exactly that credential to Trash', async () => {
    const before = await items();
    expect((await git('reject', 'protocol=https\nhost=wiki.example.test\nusername=editor\npassword=wiki-pw\n\n')).code).toBe(0);
    expect(await items()).toEqual(before);

    expect((await cli.run(['config', 'git.erase', 'trash'])).code).toBe(0);
    expect((await git('reject', 'protocol=https\nhost=wiki.example.test\nusername=editor\npassword=other\n\n')).code).toBe(0);
    expect(await items()).toEqual(before);
    expect((await git('reject', 'protocol=https\nhost=wiki.example.test\nusername=editor\npassword=wiki-pw\n\n')).code).toBe(0);
    const after = await items();
    expect(after.trash.map((item) => item.name)).toEqual(['Wiki']);
    expect((await cli.run(['restore', 'Wiki'])).code).toBe(0);
    expect((await cli.run(['get', 'Wiki', 'notes'])).stdout).toBe('keep me\n');
  });

  it('refuses a setting or value it does not know', async () => {
    const unknown = await cli.run(['config', 'git.nope', 'x']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('No setting "git.nope"');
    const value = await cli.run(['config', 'git.store', 'sometimes']);
    expect(value.code).toBe(2);
    expect(value.stderr).toContain('git.store is one of: ask, always, never');
    expect((await cli.run(['config', 'git.store'])).stdout).toBe('git.store = never\n');
  });
});
