import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { AppProvider } from '@/app/provider';
import { openAccountDocument, sealAccountDocument } from '@/lib/account-documents';
import { DEFAULT_GENERATOR_SETTINGS, generatorHistorySchema, generatorSettingsSchema } from '@/lib/generator';
import { accountDocumentRoutes } from '@/testing/account-document-routes';
import { fakeApi } from '@/testing/fake-api';
import { unlockedKeyring } from '@/testing/vault-fixtures';
import { emptyDraft } from '../lib/seal-entry';
import type { EntryDraft } from '../lib/vault-entry';
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
  it('"Generate" opens the generator beside the password; one click fills the field, and the save sends it', async () => {
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

    await user.click(within(generator).getByRole('button', { name: 'Use this password' }));
    expect(within(dialog).getByLabelText('Password')).toHaveValue(generated);
    expect(within(dialog).queryByRole('group', { name: 'Password generator' })).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(onSubmit.mock.calls[0]![0].password).toBe(generated);

    // Recorded, sealed, in the account's generator history with the item's name.
    await waitFor(() => expect(server.documents.get('generator-history')).toBeDefined());
    const history = server.documents.get('generator-history')!;
    expect(history.ciphertext).not.toContain(generated);
    const opened = await openAccountDocument(vaultKey, 'generator-history', history.ciphertext, generatorHistorySchema);
    expect(opened.ok && opened.value.entries).toEqual([{ value: generated, at: expect.any(String), item: 'Mail' }]);
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

  it('opens with the generator showing when asked (the health report’s "change")', async () => {
    const { dialog } = await renderDialog({}, true);
    expect(within(dialog).getByRole('button', { name: 'Generate' })).toHaveAttribute('aria-expanded', 'true');
    const generator = within(dialog).getByRole('group', { name: 'Password generator' });
    await waitFor(() => expect(within(generator).getByTestId('generated-value').textContent).toHaveLength(20));
  });
});
