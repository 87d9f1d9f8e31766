import { apiPaths } from '@lockit/contract';
import { Secret, TOTP } from 'otpauth';
import type { VerifiedAccount } from '@lockit/test-support';
import { describe, expect, it } from 'vitest';
import { databaseKind, seedVault } from './support/cli-against-server';
import { useCliServer } from './support/use-cli-server';

const suite = useCliServer();

const STEP_MS = 30_000;
const totpAt = (secret: string, at: number) =>
  new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({ timestamp: at });

/** TOTP turned on through the real server: its seed and the recovery codes it showed once. */
async function enableTotp({ client, account }: VerifiedAccount) {
  const setup = await client.expect<{ data: { secret: string } }>(200, 'POST', apiPaths.totpSetup, {
    password: account.keys.authKey,
  });
  const confirmed = await client.expect<{ data: { recoveryCodes: string[] } }>(200, 'POST', apiPaths.totpConfirm, {
    code: totpAt(setup.data.secret, Date.now()),
  });
  return { secret: setup.data.secret, recoveryCodes: confirmed.data.recoveryCodes };
}

describe(`lockit login, lock, unlock, logout against the real server (${databaseKind})`, () => {
  it('signs in with the master password on stdin, shows as a device of its own, and reads the vault', async () => {
    const holder = await suite.server.account();
    await seedVault(holder, [{ serviceName: 'GitHub', username: 'octo', password: 'gh-secret-1' }]);
    const cli = await suite.home();
    expect((await cli.run(['status'])).code).toBe(6);

    const login = await cli.login(suite.server.url, holder);
    expect(login.stderr).toBe('');
    expect(login.stdout).toContain(`Signed in to ${suite.server.url} as ${holder.account.username}`);
    expect(login.code).toBe(0);
    expect((await cli.run(['get', 'GitHub', 'password'])).stdout).toBe('gh-secret-1\n');

    // The sessions list names the device as the command line.
    const sessions = await holder.client.expect<{ data: Array<{ browser: string | null; current: boolean }> }>(
      200,
      'GET',
      apiPaths.sessions,
    );
    expect(sessions.data.map((session) => session.browser)).toContain('Lockit command line');
  });

  it('asks for the authenticator code after the password and opens the vault with it', async () => {
    const holder = await suite.server.account();
    const { secret } = await enableTotp(holder);
    await seedVault(holder, [{ serviceName: 'Mail', username: 'me', password: 'mail-pw' }]);
    const cli = await suite.home();
    const login = await cli.login(suite.server.url, holder, totpAt(secret, Date.now() + STEP_MS));
    expect(login.stderr).toBe('');
    expect(login.code).toBe(0);
    expect((await cli.run(['get', 'Mail', 'password'])).stdout).toBe('mail-pw\n');
  });

  it('refuses a wrong authenticator code with the server error exit code and opens nothing', async () => {
    const holder = await suite.server.account();
    const { secret } = await enableTotp(holder);
    const cli = await suite.home();
    const right = totpAt(secret, Date.now() + STEP_MS);
    const login = await cli.login(suite.server.url, holder, right === '000000' ? '111111' : '000000');
    expect(login.code).toBe(7);
    expect((await cli.run(['list'])).code).toBe(6);
  });

  it('opens the vault with a recovery code and says how many are left', async () => {
    const holder = await suite.server.account();
    const { recoveryCodes } = await enableTotp(holder);
    const cli = await suite.home();
    const login = await cli.login(suite.server.url, holder, recoveryCodes[0], ['--recovery', '--json']);
    expect(login.code).toBe(0);
    expect(JSON.parse(login.stdout)).toMatchObject({ signedIn: true, locked: false, recoveryCodesLeft: 9 });
  });

  it('locks, refuses data commands while locked, unlocks with the password, and signs out for good', async () => {
    const holder = await suite.server.account();
    await seedVault(holder, [{ serviceName: 'GitHub', username: 'octo', password: 'gh-secret-1' }]);
    const cli = await suite.home();
    await cli.login(suite.server.url, holder);
    expect((await cli.run(['lock'])).code).toBe(0);
    const locked = await cli.run(['get', 'GitHub', 'password']);
    expect(locked.code).toBe(5);
    expect(locked.stdout).toBe('');
    expect((await cli.run(['status'])).code).toBe(5);

    const wrong = await cli.run(['unlock', '--password-stdin'], { input: 'not the password\n' });
    expect(wrong.code).toBe(7);
    expect(wrong.stderr).toContain('did not unlock');
    const unlocked = await cli.run(['unlock', '--password-stdin'], { input: `${holder.account.password}\n` });
    expect(unlocked.code).toBe(0);
    expect((await cli.run(['get', 'GitHub', 'password'])).stdout).toBe('gh-secret-1\n');

    expect((await cli.run(['logout'])).code).toBe(0);
    expect((await cli.run(['status'])).code).toBe(6);
    expect((await cli.run(['get', 'GitHub', 'password'])).code).toBe(6);
  });

  it('stops working once its session is ended from another device', async () => {
    const holder = await suite.server.account();
    await seedVault(holder, [{ serviceName: 'GitHub', username: 'octo', password: 'gh-secret-1' }]);
    const cli = await suite.home();
    await cli.login(suite.server.url, holder);
    expect((await cli.run(['get', 'GitHub', 'password'])).code).toBe(0);

    const sessions = await holder.client.expect<{ data: Array<{ id: string; current: boolean; browser: string | null }> }>(
      200,
      'GET',
      apiPaths.sessions,
    );
    const device = sessions.data.find((session) => !session.current && session.browser === 'Lockit command line');
    expect(device).toBeDefined();
    await holder.client.expect(200, 'DELETE', apiPaths.session(device!.id));

    const after = await cli.run(['get', 'GitHub', 'password']);
    expect(after.code).toBe(6);
    expect(after.stdout).toBe('');
    expect(after.stderr).toContain('session has ended');
    expect((await cli.run(['status'])).code).toBe(6);
  });

  it('keeps the device memory on disk with nothing secret in it', async () => {
    const holder = await suite.server.account();
    const cli = await suite.home();
    await cli.login(suite.server.url, holder);
    const { readFile, readdir } = await import('node:fs/promises');
    const files = await readdir(cli.stateDir);
    expect(files.sort()).toEqual(['device-memory.json', 'login.json']);
    const memory = await readFile(`${cli.stateDir}/device-memory.json`, 'utf8');
    expect(memory).toContain('keyGeneration');
    expect(memory).not.toContain(holder.account.password);
    expect(memory).not.toContain(holder.account.keys.authKey);
  });
});
