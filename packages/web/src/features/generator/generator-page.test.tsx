import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { openAccountDocument } from '@/lib/account-documents';
import { generatorHistorySchema } from '@/lib/generator';
import { accountDocumentRoutes } from '@/testing/account-document-routes';
import { fakeApi, signedInRoutes } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';
import { unlockedKeyring } from '@/testing/vault-fixtures';

const generated = () => screen.getByTestId('generated-value').textContent ?? '';

describe('/generator signed out', () => {
  it('works without an account, says settings stay in this browser and no history is kept, and asks no server', async () => {
    const api = fakeApi({}, { sessionHint: false });
    const { user, unmount } = renderApp('/generator');
    expect(await screen.findByRole('heading', { name: 'Password Generator' })).toBeInTheDocument();
    expect(
      screen.getByText(/You are not signed in: these settings are remembered only in this browser, and no history/),
    ).toBeInTheDocument();
    await waitFor(() => expect(generated()).toHaveLength(20));
    await user.clear(screen.getByLabelText('Length'));
    await user.type(screen.getByLabelText('Length'), '40');
    await waitFor(() => expect(generated()).toHaveLength(40));
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    expect(await navigator.clipboard.readText()).toBe(generated());
    expect(screen.queryByRole('heading', { name: 'History' })).toBeNull();
    expect(api.requests.filter((request) => request.path.startsWith('/api/account'))).toEqual([]);

    // Remembered in this browser: a new visit starts from them.
    unmount();
    renderApp('/generator');
    await waitFor(() => expect(generated()).toHaveLength(40));
  });
});

describe('/generator signed in and unlocked', () => {
  it('records every copied password in the encrypted history, shows it newest first, and clears it', async () => {
    const { keyring, vault } = await unlockedKeyring('alice');
    const server = accountDocumentRoutes();
    fakeApi({ ...signedInRoutes(), ...server.routes });
    const { user } = renderApp('/generator', { keyring });
    expect(await screen.findByText(/Your settings are saved with your account, encrypted/)).toBeInTheDocument();
    expect(await screen.findByText('Nothing yet. Passwords you copy or use appear here.')).toBeInTheDocument();

    await waitFor(() => expect(generated()).toHaveLength(20));
    const first = generated();
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    await user.click(screen.getByRole('button', { name: 'Regenerate' }));
    await waitFor(() => expect(generated()).not.toBe(first));
    const second = generated();
    await user.click(screen.getByRole('button', { name: 'Copy' }));

    const history = screen.getByRole('region', { name: 'History' });
    await waitFor(() => expect(within(history).getAllByTestId('history-value')).toHaveLength(2));
    expect(within(history).queryByText(first)).toBeNull();
    await user.click(within(history).getByRole('button', { name: 'Show passwords' }));
    expect(
      within(history)
        .getAllByTestId('history-value')
        .map((item) => item.textContent),
    ).toEqual([second, first]);

    const stored = server.documents.get('generator-history')!;
    expect(stored.ciphertext).not.toContain(first);
    const opened = await openAccountDocument(vault.vaultKey, 'generator-history', stored.ciphertext, generatorHistorySchema);
    expect(opened.ok && opened.value.entries.map((entry) => entry.value)).toEqual([second, first]);

    await user.click(within(history).getByRole('button', { name: 'Clear history' }));
    await user.click(within(screen.getByRole('alertdialog', { name: 'Clear history' })).getByRole('button', { name: 'Clear' }));
    expect(await within(history).findByText('Nothing yet. Passwords you copy or use appear here.')).toBeInTheDocument();
    expect(server.documents.get('generator-history')!.revision).toBe(3);
  });

  it('shows a history that does not decrypt as damaged and replaces it only when asked', async () => {
    const { keyring } = await unlockedKeyring('alice');
    const server = accountDocumentRoutes({
      'generator-history': {
        kind: 'generator-history',
        ciphertext: 'v1.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA',
        revision: 2,
        updatedAt: '2025-01-01T00:00:00.000Z',
      },
    });
    fakeApi({ ...signedInRoutes(), ...server.routes });
    const { user } = renderApp('/generator', { keyring });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Your generator history: What was saved could not be decrypted or read');
    await waitFor(() => expect(generated()).toHaveLength(20));
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    // Copying did not write over it.
    expect(server.documents.get('generator-history')!.revision).toBe(2);
    await user.click(within(alert).getByRole('button', { name: 'Start a new history' }));
    expect(await screen.findByText('Nothing yet. Passwords you copy or use appear here.')).toBeInTheDocument();
    expect(server.documents.get('generator-history')!.revision).toBe(3);
  });

  it('with the vault locked says settings stay in this browser and links to the vault to unlock', async () => {
    fakeApi({ ...signedInRoutes(), ...accountDocumentRoutes().routes });
    renderApp('/generator');
    expect(await screen.findByText(/Your vault is locked in this tab/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Unlock your vault' })).toHaveAttribute('href', '/vault');
  });
});
