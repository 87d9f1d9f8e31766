import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
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

const PASSPHRASE = 'laptop passphrase 42';

/** Opens the Add dialog as an SSH key item named `name`; the dialog. */
async function addSshKeyDialog(page: Page, name: string) {
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await page.getByRole('dialog', { name: 'Add New Password' }).getByLabel('Type').selectOption({ label: 'SSH key' });
  const dialog = page.getByRole('dialog', { name: 'Add New SSH Key' });
  await dialog.getByLabel('Name').fill(name);
  return dialog;
}

/**
 * The whole road of an SSH key: made in the browser (generated with WebCrypto, or written by
 * ssh-keygen behind a passphrase and opened in the browser), sealed and saved by the web app,
 * opened by the command line's agent, and used by OpenSSH's own tools through
 * `lockit ssh-agent`: ssh-add lists the keys, ssh-keygen -Y sign signs with them and -Y verify
 * accepts the signatures under the public keys the web app showed.
 */
describe('SSH keys saved in the web app, used through lockit ssh-agent', () => {
  it('are listed by ssh-add -L and sign for ssh-keygen -Y sign, which -Y verify accepts', async () => {
    const account = newAccount('sshkey');
    await signUpViaApi(e2e.server, e2e.smtp, account);
    work = await mkdtemp(join(tmpdir(), 'e2e-ssh-key-'));
    const laptop = join(work, 'id_laptop');
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', PASSPHRASE, '-C', 'laptop@ssh-keygen', '-f', laptop]);
    const laptopPublic = (await readFile(`${laptop}.pub`, 'utf8')).trim();

    const context = await e2e.newContext();
    const page = await context.newPage();
    await signIn(page, account.username, account.password);
    await openVault(page);

    const generated = await addSshKeyDialog(page, 'Deploy key');
    await generated.getByLabel('Comment').fill('deploy@web');
    await generated.getByRole('button', { name: 'Generate Ed25519 key' }).click();
    const shown = generated.getByTestId('ssh-public-key');
    await shown.waitFor();
    const deployPublic = (await shown.textContent())!.trim();
    expect(deployPublic).toMatch(/^ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI\S+ deploy@web$/);
    await generated.getByRole('button', { name: 'Add', exact: true }).click();
    await generated.waitFor({ state: 'hidden' });
    await rowOf(page, 'Deploy key').waitFor();

    const pasted = await addSshKeyDialog(page, 'Laptop key');
    await pasted.getByLabel('Private key (OpenSSH)').fill(await readFile(laptop, 'utf8'));
    await pasted.getByLabel('Key passphrase').fill(PASSPHRASE);
    await pasted.getByRole('button', { name: 'Open key' }).click();
    await expect.poll(() => pasted.getByTestId('ssh-public-key').textContent(), { timeout: 30_000 }).toBe(laptopPublic);
    await pasted.getByRole('button', { name: 'Add', exact: true }).click();
    await pasted.waitFor({ state: 'hidden' });
    await rowOf(page, 'Laptop key').waitFor();
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
    expect(listed.stdout.trim().split('\n').sort()).toEqual([deployPublic, laptopPublic].sort());

    for (const [name, publicKey] of [
      ['deploy', deployPublic],
      ['laptop', laptopPublic],
    ] as const) {
      const pub = join(work, `${name}.pub`);
      const message = join(work, `${name}.txt`);
      const signers = join(work, `${name}.signers`);
      await writeFile(pub, `${publicKey}\n`);
      await writeFile(message, `a commit signed with the ${name} key\n`);
      await writeFile(signers, `me@example.com ${publicKey}\n`);
      const signed = await ssh('ssh-keygen', ['-Y', 'sign', '-n', 'git', '-f', pub, message]);
      expect(signed.code, signed.stderr).toBe(0);
      const verified = await ssh(
        'ssh-keygen',
        ['-Y', 'verify', '-f', signers, '-I', 'me@example.com', '-n', 'git', '-s', `${message}.sig`],
        await readFile(message, 'utf8'),
      );
      expect(verified.code, verified.stderr).toBe(0);
      expect(verified.stdout).toContain('Good "git" signature for me@example.com');
    }
  });
});
