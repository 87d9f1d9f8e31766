import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliHome, runProgram, type CliHome } from '@lockit/test-support/cli';
import { newAccount, signIn, signUpViaApi } from './support/journeys';
import { useE2e } from './support/setup';
import { openVault, rowOf } from './support/vault-page';

const e2e = useE2e();

let home: CliHome | undefined;
let work: string | undefined;

afterAll(async () => {
  await home?.dispose();
  if (work) await rm(work, { recursive: true, force: true });
});

/**
 * The whole road of an SSH key: generated in the browser (WebCrypto), sealed and saved by the web
 * app, opened by the command line's agent, and used by OpenSSH's own tools through
 * `lockit ssh-agent`: ssh-add lists it, ssh-keygen -Y sign signs with it and -Y verify accepts
 * the signature under the public key the web app showed.
 */
describe('an SSH key generated in the web app, used through lockit ssh-agent', () => {
  it('is listed by ssh-add -L and signs for ssh-keygen -Y sign, which -Y verify accepts', async () => {
    const account = newAccount('sshkey');
    await signUpViaApi(e2e.server, e2e.smtp, account);

    const context = await e2e.newContext();
    const page = await context.newPage();
    await signIn(page, account.username, account.password);
    await openVault(page);

    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByRole('dialog', { name: 'Add New Password' }).getByLabel('Type').selectOption({ label: 'SSH key' });
    const dialog = page.getByRole('dialog', { name: 'Add New SSH Key' });
    await dialog.getByLabel('Name').fill('Deploy key');
    await dialog.getByLabel('Comment').fill('deploy@web');
    await dialog.getByRole('button', { name: 'Generate Ed25519 key' }).click();
    const shown = dialog.getByTestId('ssh-public-key');
    await shown.waitFor();
    const publicKey = (await shown.textContent())!.trim();
    expect(publicKey).toMatch(/^ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI\S+ deploy@web$/);
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    await rowOf(page, 'Deploy key').waitFor();
    await context.close();

    // The command line in a home of its own, against the same server.
    home = await cliHome();
    const login = await home.login(e2e.server.url, { account });
    expect(login.code, login.stderr).toBe(0);
    const started = await home.run(['ssh-agent', '--json']);
    expect(started.code, started.stderr).toBe(0);
    const { socket } = JSON.parse(started.stdout) as { socket: string };
    const ssh = (file: 'ssh-add' | 'ssh-keygen', args: string[], input?: string) =>
      runProgram(file, args, { env: { ...process.env, SSH_AUTH_SOCK: socket }, input });

    const listed = await ssh('ssh-add', ['-L']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout.trim()).toBe(publicKey);

    work = await mkdtemp(join(tmpdir(), 'e2e-ssh-key-'));
    const pub = join(work, 'deploy.pub');
    const message = join(work, 'commit.txt');
    const signers = join(work, 'allowed_signers');
    await writeFile(pub, `${publicKey}\n`);
    await writeFile(message, 'a commit signed with a key made in the browser\n');
    await writeFile(signers, `deploy@example.com ${publicKey}\n`);
    const signed = await ssh('ssh-keygen', ['-Y', 'sign', '-n', 'git', '-f', pub, message]);
    expect(signed.code, signed.stderr).toBe(0);
    const verified = await ssh(
      'ssh-keygen',
      ['-Y', 'verify', '-f', signers, '-I', 'deploy@example.com', '-n', 'git', '-s', `${message}.sig`],
      await readFile(message, 'utf8'),
    );
    expect(verified.code, verified.stderr).toBe(0);
    expect(verified.stdout).toContain('Good "git" signature for deploy@example.com');
  });
});
