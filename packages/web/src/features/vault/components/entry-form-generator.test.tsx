import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { AppProvider } from '@/app/provider';
import { openAccountDocument, sealAccountDocument } from '@/lib/account-documents';
import { DEFAULT_GENERATOR_SETTINGS, generatorHistorySchema, generatorSettingsSchema } from '@/lib/generator';
import { accountDocumentRoutes } from '@/testing/account-document-routes';
import { fakeApi } from '@/testing/fake-api';
import { unlockedKeyring } from '@/testing/vault-fixtures';
import { emptyDraft } from '@lockit/client-core';
import type { EntryDraft } from '@lockit/client-core';
import { EntryFormDialog } from './entry-form-dialog';

async function renderDialog(documents: Parameters<typeof accountDocumentRoutes>[0] = {}, startWithGenerator = false) {
  const { keyring, vault } = await unlockedKeyring();
  const server = accountDocumentRoutes(documents);
  fakeApi(server.routes);
  const onSubmit = vi.fn(async (_draft: EntryDraft) => ({ ok: true as const }));
  const user = userEvent.setup();
  render(
    <AppProvider keyring={keyring}>
      <EntryFormDialog
        mode="add"
        initial={emptyDraft('login')}
        onSubmit={onSubmit}
        onClose={() => {}}
        startWithGenerator={startWithGenerator}
      />
    </AppProvider>,
  );
  const dialog = screen.getByRole('dialog');
  return { user, dialog, onSubmit, server, vaultKey: vault.vaultKey };
}

describe('Entry editor: the password generator', () => {
  it('one click on "Generate" fills the password with a generated one; the generator stays open, and the save sends it', async () => {
    const { user, dialog, onSubmit, server, vaultKey } = await renderDialog();
    await user.type(within(dialog).getByLabelText('Service'), 'Mail');
    await user.type(within(dialog).getByLabelText('Username'), 'alice');
    const generate = within(dialog).getByRole('button', { name: 'Generate' });
    expect(generate).toHaveAttribute('aria-expanded', 'false');
    await user.click(generate);
    expect(generate).toHaveAttribute('aria-expanded', 'true');
    const generator = within(dialog).getByRole('group', { name: 'Password generator' });
    const value = within(generator).getByTestId('generated-value');
    await waitFor(() => expect(value.textContent).toHaveLength(20));
    const generated = value.textContent!;
    // No second click: the field already holds it, and the options are still there.
    expect(within(dialog).getByLabelText('Password')).toHaveValue(generated);
    expect(within(dialog).getByRole('group', { name: 'Password generator' })).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(onSubmit.mock.calls[0]![0].password).toBe(generated);

    // Recorded, sealed, in the account's generator history with the item's name.
    await waitFor(() => expect(server.documents.get('generator-history')).toBeDefined());
    const history = server.documents.get('generator-history')!;
    expect(history.ciphertext).not.toContain(generated);
    const opened = await openAccountDocument(vaultKey, 'generator-history', history.ciphertext, generatorHistorySchema);
    expect(opened.ok && opened.value.entries).toEqual([{ value: generated, at: expect.any(String), item: 'Mail' }]);
  });

  it('refills the password when an option changes or on Regenerate, and keeps only the value in the field in the history', async () => {
    const { user, dialog, server, vaultKey } = await renderDialog();
    await user.type(within(dialog).getByLabelText('Service'), 'Bank');
    await user.click(within(dialog).getByRole('button', { name: 'Generate' }));
    const generator = within(dialog).getByRole('group', { name: 'Password generator' });
    const value = within(generator).getByTestId('generated-value');
    const password = within(dialog).getByLabelText('Password');
    await waitFor(() => expect(password).toHaveValue(value.textContent));
    const first = value.textContent!;

    await user.click(within(generator).getByLabelText('Passphrase'));
    // A random password may hold a '-' too: wait for words joined by hyphens and nothing else.
    await waitFor(() => expect(value.textContent).toMatch(/^[\p{L}\d]+(-[\p{L}\d]+){2,}$/u));
    await waitFor(() => expect(password).toHaveValue(value.textContent));
    const passphrase = value.textContent!;
    expect(passphrase).not.toBe(first);

    await user.click(within(generator).getByRole('button', { name: 'Regenerate' }));
    await waitFor(() => expect(value.textContent).not.toBe(passphrase));
    await waitFor(() => expect(password).toHaveValue(value.textContent));
    const last = value.textContent!;

    await waitFor(async () => {
      const stored = server.documents.get('generator-history');
      expect(stored).toBeDefined();
      const opened = await openAccountDocument(vaultKey, 'generator-history', stored!.ciphertext, generatorHistorySchema);
      expect(opened.ok && opened.value.entries).toEqual([{ value: last, at: expect.any(String), item: 'Bank' }]);
    });
  });

  it('"Use this password" puts the shown value back after typing over it, and closes the generator', async () => {
    const { user, dialog } = await renderDialog();
    await user.click(within(dialog).getByRole('button', { name: 'Generate' }));
    const generator = within(dialog).getByRole('group', { name: 'Password generator' });
    const value = within(generator).getByTestId('generated-value');
    const password = within(dialog).getByLabelText('Password');
    await waitFor(() => expect(password).toHaveValue(value.textContent));
    const generated = value.textContent!;
    await user.clear(password);
    await user.type(password, 'my own');
    await user.click(within(generator).getByRole('button', { name: 'Use this password' }));
    expect(password).toHaveValue(generated);
    expect(within(dialog).queryByRole('group', { name: 'Password generator' })).toBeNull();
  });

  it('starts from the account’s saved settings and saves a change to them, sealed', async () => {
    const { user, dialog, server, vaultKey } = await renderDialog();
    // Saved settings need this dialog's vault key: seal them now and serve them.
    const saved = { ...DEFAULT_GENERATOR_SETTINGS, password: { ...DEFAULT_GENERATOR_SETTINGS.password, length: 32 } };
    server.documents.set('generator-settings', {
      kind: 'generator-settings',
      ciphertext: await sealAccountDocument(vaultKey, 'generator-settings', saved),
      revision: 4,
      updatedAt: new Date().toISOString(),
    });
    await user.click(within(dialog).getByRole('button', { name: 'Generate' }));
    const generator = within(dialog).getByRole('group', { name: 'Password generator' });
    await waitFor(() => expect(within(generator).getByTestId('generated-value').textContent).toHaveLength(32));

    await user.click(within(generator).getByLabelText('Passphrase'));
    await waitFor(() => expect(server.documents.get('generator-settings')!.revision).toBe(5));
    const opened = await openAccountDocument(
      vaultKey,
      'generator-settings',
      server.documents.get('generator-settings')!.ciphertext,
      generatorSettingsSchema,
    );
    expect(opened).toEqual({ ok: true, value: { ...saved, mode: 'passphrase' } });
  });

  it('opens with the generator showing and its value in the field when asked (the health report’s "change")', async () => {
    const { dialog } = await renderDialog({}, true);
    expect(within(dialog).getByRole('button', { name: 'Generate' })).toHaveAttribute('aria-expanded', 'true');
    const generator = within(dialog).getByRole('group', { name: 'Password generator' });
    const value = within(generator).getByTestId('generated-value');
    await waitFor(() => expect(value.textContent).toHaveLength(20));
    expect(within(dialog).getByLabelText('Password')).toHaveValue(value.textContent);
  });
});
