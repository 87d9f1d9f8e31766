import { apiPaths, type EntryWire } from '@lockit/contract';
import { generateVaultKeyBytes, importVaultKey } from '@lockit/crypto';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, signedInRoutes } from '@/testing/fake-api';
import { pageRoutes } from '@/testing/page-routes';
import { renderApp } from '@/testing/render-app';
import { fakeEntryRoutes, listedNames, sealedEntry, unlockedKeyring } from '@/testing/vault-fixtures';
import { VaultPage } from './vault-page';

const routes = pageRoutes({ '/vault': <VaultPage /> });
const DAMAGED = 'This entry could not be decrypted. It may have been changed on the server.';
const ROLLED_BACK = 'This entry is older than the version this tab has already shown. The server may have rolled it back.';

/** One character flipped in the middle of the ciphertext data: the GCM tag no longer verifies. */
function flipBit(ciphertext: string): string {
  const [version, iv, data] = ciphertext.split('.') as [string, string, string];
  const at = Math.floor(data.length / 2);
  const swapped = data[at] === 'A' ? 'B' : 'A';
  return `${version}.${iv}.${data.slice(0, at)}${swapped}${data.slice(at + 1)}`;
}

async function vaultWith(build: (vaultKey: CryptoKey, good: EntryWire) => Promise<EntryWire[]>) {
  const { keyring, vault } = await unlockedKeyring();
  const good = await sealedEntry(vault.vaultKey, { serviceName: 'GitHub', username: 'alice', password: 'gh-secret' });
  const entries = await build(vault.vaultKey, good);
  const server = fakeEntryRoutes(entries);
  const api = fakeApi({ ...signedInRoutes(), ...server.routes });
  const app = renderApp('/vault', { routes, keyring });
  await screen.findByRole('listitem', { name: 'GitHub' });
  return { app, api, server };
}

const MAIL = { serviceName: 'Mail', username: 'bob', password: 'mail-secret' };
const other = (vaultKey: CryptoKey) => sealedEntry(vaultKey, MAIL);
/** Mail as saved before bound overviews: its password is checked only when opened. */
const unboundOther = (vaultKey: CryptoKey) => sealedEntry(vaultKey, MAIL, { format: 'unbound' });

describe('Vault: damaged entries', () => {
  it.each([
    [
      'a field moved from another entry',
      async (key: CryptoKey, good: EntryWire) => ({ ...(await other(key)), serviceName: good.serviceName }),
    ],
    [
      'a field moved to another field of the same entry',
      async (key: CryptoKey) => {
        const mail = await other(key);
        return { ...mail, username: mail.serviceName };
      },
    ],
    [
      'a flipped bit',
      async (key: CryptoKey) => {
        const mail = await other(key);
        return { ...mail, username: flipBit(mail.username) };
      },
    ],
    ['plaintext', async (key: CryptoKey) => ({ ...(await other(key)), serviceName: 'Mail' })],
    [
      'an unknown format version',
      async (key: CryptoKey) => {
        const mail = await other(key);
        return { ...mail, serviceName: mail.serviceName.replace(/^v2\./, 'v3.') };
      },
    ],
    ['another vault key', async () => other(await importVaultKey(generateVaultKeyBytes()))],
    [
      'a password with a flipped bit (the overview is bound to it)',
      async (key: CryptoKey) => {
        const mail = await other(key);
        return { ...mail, password: flipBit(mail.password) };
      },
    ],
    [
      'a password moved from another entry (the overview is bound to it)',
      async (key: CryptoKey, good: EntryWire) => ({ ...(await other(key)), password: good.password }),
    ],
    [
      'a password from an older revision of the same entry, beside the rest of the newer one',
      async (key: CryptoKey) => {
        const older = await other(key);
        const newer = await sealedEntry(key, { ...MAIL, password: 'mail-secret-2' }, { id: older.id, revision: 2 });
        return { ...newer, password: older.password };
      },
    ],
    ['a field dropped', async (key: CryptoKey) => ({ ...(await sealedEntry(key, { ...MAIL, notes: 'n' })), notes: null })],
    ['a malformed entry', async (key: CryptoKey) => ({ ...(await other(key)), revision: 'one' }) as unknown as EntryWire],
  ])('shows %s as damaged, never its data, while the rest works', async (_case, tamper) => {
    const { app } = await vaultWith(async (key, good) => [good, await tamper(key, good)]);

    const damaged = screen.getByRole('listitem', { name: 'Damaged entry' });
    expect(within(damaged).getByText(DAMAGED)).toBeInTheDocument();
    expect(screen.queryByText('Mail')).not.toBeInTheDocument();
    expect(screen.queryByText('bob')).not.toBeInTheDocument();
    expect(within(damaged).queryByRole('button', { name: /Show|Copy|Edit/ })).not.toBeInTheDocument();

    const github = screen.getByRole('listitem', { name: 'GitHub' });
    expect(within(github).getByText('alice')).toBeInTheDocument();
    await app.user.click(within(github).getByRole('button', { name: 'Show password for GitHub' }));
    expect(await within(github).findByText('gh-secret')).toBeInTheDocument();
  });

  it('marks an entry saved before bound overviews damaged when its password fails on reveal, and never shows it', async () => {
    const { app } = await vaultWith(async (key, good) => {
      const mail = await unboundOther(key);
      return [good, { ...mail, password: flipBit(mail.password) }];
    });
    const mail = screen.getByRole('listitem', { name: 'Mail' });
    await app.user.click(within(mail).getByRole('button', { name: 'Show password for Mail' }));
    expect(await screen.findByText(DAMAGED)).toBeInTheDocument();
    expect(screen.queryByText('mail-secret')).not.toBeInTheDocument();
    expect(screen.queryByRole('listitem', { name: 'Mail' })).not.toBeInTheDocument();
  });

  it('marks an entry saved before bound overviews damaged instead of opening Edit when its password was moved from another entry', async () => {
    const { app } = await vaultWith(async (key, good) => [good, { ...(await unboundOther(key)), password: good.password }]);
    await app.user.click(screen.getByRole('button', { name: 'Edit Mail' }));
    expect(await screen.findByText(DAMAGED)).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.queryByDisplayValue('gh-secret')).not.toBeInTheDocument();
  });

  it('lets a damaged entry be deleted after confirmation', async () => {
    const { app, api, server } = await vaultWith(async (key, good) => [good, { ...(await other(key)), serviceName: 'Mail' }]);
    const damagedId = [...server.store.keys()][1]!;
    await app.user.click(
      within(screen.getByRole('listitem', { name: 'Damaged entry' })).getByRole('button', { name: 'Delete damaged entry' }),
    );
    await app.user.click(within(screen.getByRole('dialog', { name: 'Delete Password' })).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByText(DAMAGED)).not.toBeInTheDocument());
    expect(api.to('DELETE', apiPaths.deleteEntry(damagedId))).toHaveLength(1);
    expect(listedNames()).toEqual(['GitHub']);
  });

  it('shows an entry served again at an older revision than this tab already showed as rolled back, never its old data', async () => {
    const { keyring, vault } = await unlockedKeyring();
    const current = await sealedEntry(
      vault.vaultKey,
      { serviceName: 'GitHub', username: 'alice', password: 'gh-new' },
      { revision: 2 },
    );
    const older = await sealedEntry(
      vault.vaultKey,
      { serviceName: 'GitHub', username: 'alice', password: 'gh-old' },
      { id: current.id, createdAt: current.createdAt, revision: 1 },
    );
    const server = fakeEntryRoutes([current]);
    fakeApi({ ...signedInRoutes(), ...server.routes });
    const first = renderApp('/vault', { routes, keyring });
    await screen.findByRole('listitem', { name: 'GitHub' });
    first.unmount();

    // The server rolls the entry back; the same tab (same keyring) opens the vault again.
    server.store.set(current.id, older);
    const again = renderApp('/vault', { routes, keyring });
    const rolledBack = await screen.findByRole('listitem', { name: 'Damaged entry' });
    expect(within(rolledBack).getByText(ROLLED_BACK)).toBeInTheDocument();
    expect(within(rolledBack).queryByRole('button', { name: /Show|Copy|Edit/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('listitem', { name: 'GitHub' })).not.toBeInTheDocument();
    expect(screen.queryByText('gh-old')).not.toBeInTheDocument();
    again.unmount();

    // A new tab has no memory: the older revision opens there (the documented limit).
    const fresh = await unlockedKeyring();
    fresh.keyring.unlock({ ...fresh.vault, vaultKey: vault.vaultKey });
    renderApp('/vault', { routes, keyring: fresh.keyring });
    await screen.findByRole('listitem', { name: 'GitHub' });
  });
});
