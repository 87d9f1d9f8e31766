import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { emptyDraft, parseSshPrivateKey, sshKeyNeedsPassphrase } from '@lockit/client-core';
import type { EntryDraft } from '@lockit/client-core';
import { EntryFormDialog } from './entry-form-dialog';

// A throwaway key made with `ssh-keygen -t ed25519 -N '' -C fixture@lockit` for this test only.
const FIXTURE_KEY = `-----BEGIN OPENSSH PRIVATE KEY-----
b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW
QyNTUxOQAAACD/3O5D7XztpXe5G9KcQBd2M3YzqSaOBbrFrGO9qRFglgAAAJh0cY8DdHGP
AwAAAAtzc2gtZWQyNTUxOQAAACD/3O5D7XztpXe5G9KcQBd2M3YzqSaOBbrFrGO9qRFglg
AAAEDR/nwgk9LN2KiMI+qG6qnnuWqPz1/vt/aFNOsLd9cRYP/c7kPtfO2ld7kb0pxAF3Yz
djOpJo4FusWsY72pEWCWAAAADmZpeHR1cmVAbG9ja2l0AQIDBAUGBw==
-----END OPENSSH PRIVATE KEY-----
`;
const FIXTURE_PUBLIC = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIP/c7kPtfO2ld7kb0pxAF3YzdjOpJo4FusWsY72pEWCW fixture@lockit';
const FIXTURE_FINGERPRINT = 'SHA256:R00ATZLaWB9yU3LuvWbcc1hpFCz0vY3dldXMN1Gq460';

function renderSshForm() {
  const user = userEvent.setup();
  const onSubmit = vi.fn(async (_draft: EntryDraft) => ({ ok: true }) as const);
  render(<EntryFormDialog mode="add" initial={emptyDraft('sshKey')} onSubmit={onSubmit} onClose={vi.fn()} folders={[]} />);
  const dialog = screen.getByRole('dialog');
  return { user, dialog, submitted: () => onSubmit.mock.calls.at(-1)?.[0] };
}

// Typing a whole form on a loaded machine takes a while; the default 20 s is short for it.
describe('Entry editor: an SSH key', { timeout: 60_000 }, () => {
  it('generates an Ed25519 key, shows its public key and fingerprint, hides the private key, and saves it', async () => {
    const { user, dialog, submitted } = renderSshForm();
    await user.type(within(dialog).getByLabelText('Name'), 'Laptop key');
    await user.type(within(dialog).getByLabelText('Comment'), 'me@laptop');
    await user.click(within(dialog).getByRole('button', { name: 'Generate Ed25519 key' }));
    const publicKey = await within(dialog).findByTestId('ssh-public-key');
    expect(publicKey.textContent).toMatch(/^ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI\S+ me@laptop$/);
    expect(within(dialog).getByTestId('ssh-fingerprint').textContent).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
    expect(within(dialog).queryByLabelText('Private key (OpenSSH)')).toBeNull();
    expect(dialog.textContent).not.toContain('BEGIN OPENSSH PRIVATE KEY');
    await user.click(within(dialog).getByRole('button', { name: 'Show private key' }));
    expect((within(dialog).getByLabelText('Private key (OpenSSH)') as HTMLTextAreaElement).value).toMatch(
      /^-----BEGIN OPENSSH PRIVATE KEY-----\n/,
    );
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    const draft = submitted();
    expect(draft?.type).toBe('sshKey');
    expect(parseSshPrivateKey(draft!.sshKey!.privateKey).publicKey).toBe(publicKey.textContent);
  });

  it('imports a pasted OpenSSH key: the public key and fingerprint are those ssh-keygen prints, and copy takes the public key', async () => {
    const { user, dialog } = renderSshForm();
    await user.click(within(dialog).getByLabelText('Private key (OpenSSH)'));
    await user.paste(FIXTURE_KEY);
    expect(within(dialog).getByTestId('ssh-public-key')).toHaveTextContent(FIXTURE_PUBLIC);
    expect(within(dialog).getByTestId('ssh-fingerprint')).toHaveTextContent(FIXTURE_FINGERPRINT);
    expect(within(dialog).queryByRole('alert')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Copy public key' }));
    // user-event's clipboard stands in for the browser's.
    expect(await navigator.clipboard.readText()).toBe(FIXTURE_PUBLIC);
  });

  it('refuses a key it cannot take with a clear message, and does not save it', async () => {
    const { user, dialog, submitted } = renderSshForm();
    await user.type(within(dialog).getByLabelText('Name'), 'Bad key');
    await user.click(within(dialog).getByLabelText('Private key (OpenSSH)'));
    await user.paste('-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----\n');
    expect(within(dialog).getByRole('alert')).toHaveTextContent(/PEM private key, not an OpenSSH one/);
    expect(within(dialog).queryByTestId('ssh-public-key')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(submitted()).toBeUndefined();
  });

  it('asks for the passphrase of a protected key, refuses a wrong one, and saves the opened key without it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ssh-key-fields-test-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const passphrase = 'laptop passphrase 7';
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', passphrase, '-C', 'protected@lockit', '-f', join(dir, 'key')]);
    const { user, dialog, submitted } = renderSshForm();
    await user.type(within(dialog).getByLabelText('Name'), 'Protected key');
    await user.click(within(dialog).getByLabelText('Private key (OpenSSH)'));
    await user.paste(readFileSync(join(dir, 'key'), 'utf8'));
    expect(dialog).toHaveTextContent('This key is protected by a passphrase. Type it to open the key here');
    expect(within(dialog).queryByTestId('ssh-public-key')).toBeNull();
    // Not saved while it is still behind its passphrase.
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(submitted()).toBeUndefined();

    await user.type(within(dialog).getByLabelText('Key passphrase'), 'not it');
    await user.click(within(dialog).getByRole('button', { name: 'Open key' }));
    expect(await within(dialog).findByText('This passphrase does not open the key. Check it and type it again.')).toHaveAttribute(
      'role',
      'alert',
    );
    await user.clear(within(dialog).getByLabelText('Key passphrase'));
    // Enter opens the key; it does not submit the item.
    await user.type(within(dialog).getByLabelText('Key passphrase'), `${passphrase}{Enter}`);
    const publicKey = await within(dialog).findByTestId('ssh-public-key', {}, { timeout: 20_000 });
    expect(publicKey).toHaveTextContent(readFileSync(join(dir, 'key.pub'), 'utf8').trim());
    expect(submitted()).toBeUndefined();
    expect(within(dialog).queryByLabelText('Key passphrase')).toBeNull();

    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    const draft = submitted();
    expect(sshKeyNeedsPassphrase(draft!.sshKey!.privateKey)).toBe(false);
    expect(parseSshPrivateKey(draft!.sshKey!.privateKey).publicKey).toBe(publicKey.textContent);
    expect(JSON.stringify(draft)).not.toContain(passphrase);
  });
});
