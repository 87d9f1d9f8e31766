import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { apiPaths, type AccountDocumentWire } from '@lockit/contract';
import { decryptField, generateVaultKeyBytes, importVaultKey } from '@lockit/crypto';
import { AppProvider } from '@/app/provider';
import { Keyring } from '@/lib/keyring';
import { accountDocumentRoutes } from '@/testing/account-document-routes';
import { fakeApi, route } from '@/testing/fake-api';
import { unlockedKeyring } from '@/testing/vault-fixtures';
import { openAccountDocument, sealAccountDocument } from './seal-account-document';
import { DAMAGED_DOCUMENT_MESSAGE, useAccountDocument } from './use-account-document';

const schema = z.strictObject({ words: z.array(z.string()) });
type Doc = z.infer<typeof schema>;
const EMPTY: Doc = { words: [] };
const PATH = apiPaths.accountDocument('generator-history');

const wire = (ciphertext: string, revision: number): AccountDocumentWire => ({
  kind: 'generator-history',
  ciphertext,
  revision,
  updatedAt: '2025-01-01T00:00:00.000Z',
});

function renderDocument(keyring: Keyring) {
  const wrapper = ({ children }: { children: ReactNode }) => <AppProvider keyring={keyring}>{children}</AppProvider>;
  return renderHook(() => useAccountDocument<Doc>('generator-history', schema, EMPTY), { wrapper });
}

describe('useAccountDocument', () => {
  it('starts ready with the empty value when nothing was saved, and creates the document sealed at revision 0', async () => {
    const { keyring, vault } = await unlockedKeyring();
    const server = accountDocumentRoutes();
    const api = fakeApi(server.routes);
    const { result } = renderDocument(keyring);
    expect(result.current.status).toBe('loading');
    await waitFor(() => expect(result.current.status).toBe('ready'));
    expect(result.current.value).toEqual(EMPTY);

    let outcome;
    await act(async () => {
      outcome = await result.current.update((current) => ({ words: [...current.words, 'correct horse'] }));
    });
    expect(outcome).toEqual({ ok: true });
    await waitFor(() => expect(result.current.value).toEqual({ words: ['correct horse'] }));
    const [put] = api.to('PUT', PATH);
    const body = put!.body as { ciphertext: string; revision: number };
    expect(body.revision).toBe(0);
    expect(body.ciphertext).toMatch(/^v2\./);
    expect(body.ciphertext).not.toContain('correct');
    expect(await openAccountDocument(vault.vaultKey, 'generator-history', body.ciphertext, schema)).toEqual({
      ok: true,
      value: { words: ['correct horse'] },
    });
    expect(server.documents.get('generator-history')?.revision).toBe(1);
  });

  it('opens a saved document and bases the next write on its revision', async () => {
    const { keyring, vault } = await unlockedKeyring();
    const saved = await sealAccountDocument(vault.vaultKey, 'generator-history', { words: ['one'] });
    const server = accountDocumentRoutes({ 'generator-history': wire(saved, 7) });
    const api = fakeApi(server.routes);
    const { result } = renderDocument(keyring);
    await waitFor(() => expect(result.current.value).toEqual({ words: ['one'] }));
    await act(async () => {
      await result.current.update((current) => ({ words: [...current.words, 'two'] }));
    });
    expect((api.to('PUT', PATH)[0]!.body as { revision: number }).revision).toBe(7);
    await waitFor(() => expect(result.current.value).toEqual({ words: ['one', 'two'] }));
  });

  it('refuses an older document the server serves again (a replay), under any revision number, and never shows it', async () => {
    const { keyring, vault } = await unlockedKeyring();
    const older = await sealAccountDocument(vault.vaultKey, 'generator-history', { words: ['old'] }, 3);
    const newer = await sealAccountDocument(vault.vaultKey, 'generator-history', { words: ['old', 'new'] }, 4);
    const server = accountDocumentRoutes({ 'generator-history': wire(newer, 4) });
    fakeApi(server.routes);
    const first = renderDocument(keyring);
    await waitFor(() => expect(first.result.current.value).toEqual({ words: ['old', 'new'] }));
    first.unmount();

    // The server goes back to the older ciphertext, even under the current revision number.
    for (const revision of [3, 4, 9]) {
      server.documents.set('generator-history', wire(older, revision));
      const again = renderDocument(keyring);
      await waitFor(() => expect(again.result.current.status).toBe('damaged'));
      expect(again.result.current.value).toEqual(EMPTY);
      again.unmount();
    }
    // Or says there is none at all.
    server.documents.delete('generator-history');
    const none = renderDocument(keyring);
    await waitFor(() => expect(none.result.current.status).toBe('damaged'));
  });

  it('seals each write with the revision it creates, above any this browser saw, so starting over after a replay sticks', async () => {
    const { keyring, vault } = await unlockedKeyring();
    const newer = await sealAccountDocument(vault.vaultKey, 'generator-history', { words: ['a'] }, 6);
    const server = accountDocumentRoutes({ 'generator-history': wire(newer, 6) });
    const api = fakeApi(server.routes);
    const seen = renderDocument(keyring);
    await waitFor(() => expect(seen.result.current.status).toBe('ready'));
    seen.unmount();
    // A restored server holds revision 2 of it.
    const older = await sealAccountDocument(vault.vaultKey, 'generator-history', { words: [] }, 2);
    server.documents.set('generator-history', wire(older, 2));
    const { result } = renderDocument(keyring);
    await waitFor(() => expect(result.current.status).toBe('damaged'));
    await act(async () => {
      expect(await result.current.reset()).toEqual({ ok: true });
    });
    const body = api.to('PUT', PATH).at(-1)!.body as { ciphertext: string; revision: number };
    expect(body.revision).toBe(2);
    // Sealed at 7: above the 6 this browser saw, so it opens here again.
    expect(
      JSON.parse(await decryptField(vault.vaultKey, 'account-document:generator-history', 'notes', body.ciphertext)),
    ).toEqual({
      lockitDocument: 2,
      revision: 7,
      value: EMPTY,
    });
    await waitFor(() => expect(result.current.status).toBe('ready'));
  });

  it('on a conflict re-applies the change to what another device saved, keeping both changes', async () => {
    const { keyring, vault } = await unlockedKeyring();
    const server = accountDocumentRoutes();
    const api = fakeApi(server.routes);
    const { result } = renderDocument(keyring);
    await waitFor(() => expect(result.current.status).toBe('ready'));
    // Another device saves after this tab read the (empty) document.
    server.documents.set(
      'generator-history',
      wire(await sealAccountDocument(vault.vaultKey, 'generator-history', { words: ['elsewhere'] }), 1),
    );

    let outcome;
    await act(async () => {
      outcome = await result.current.update((current) => ({ words: [...current.words, 'here'] }));
    });
    expect(outcome).toEqual({ ok: true });
    expect(api.to('PUT', PATH).map((request) => (request.body as { revision: number }).revision)).toEqual([0, 1]);
    await waitFor(() => expect(result.current.value).toEqual({ words: ['elsewhere', 'here'] }));
    const stored = server.documents.get('generator-history')!;
    expect(stored.revision).toBe(2);
    expect(await openAccountDocument(vault.vaultKey, 'generator-history', stored.ciphertext, schema)).toEqual({
      ok: true,
      value: { words: ['elsewhere', 'here'] },
    });
  });

  it('runs two updates of one tab one after the other, so neither is lost', async () => {
    const { keyring } = await unlockedKeyring();
    const server = accountDocumentRoutes();
    const api = fakeApi(server.routes);
    const { result } = renderDocument(keyring);
    await waitFor(() => expect(result.current.status).toBe('ready'));
    await act(async () => {
      await Promise.all([
        result.current.update((current) => ({ words: [...current.words, 'a'] })),
        result.current.update((current) => ({ words: [...current.words, 'b'] })),
      ]);
    });
    await waitFor(() => expect(result.current.value).toEqual({ words: ['a', 'b'] }));
    expect(api.to('PUT', PATH)).toHaveLength(2);
  });

  for (const [label, make] of [
    ['sealed as another kind', (key: CryptoKey) => sealAccountDocument(key, 'generator-settings', { words: ['x'] })],
    ['not matching the schema', (key: CryptoKey) => sealAccountDocument(key, 'generator-history', { words: 'x' })],
    [
      'sealed under another account’s vault key',
      async () => sealAccountDocument(await importVaultKey(generateVaultKeyBytes()), 'generator-history', { words: ['x'] }),
    ],
    ['not a Lockit ciphertext', async () => 'v1.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA'],
  ] as const) {
    it(`shows a document ${label} as damaged, refuses to write over it, and replaces it only on reset`, async () => {
      const { keyring, vault } = await unlockedKeyring();
      const server = accountDocumentRoutes({ 'generator-history': wire(await make(vault.vaultKey), 3) });
      const api = fakeApi(server.routes);
      const { result } = renderDocument(keyring);
      await waitFor(() => expect(result.current.status).toBe('damaged'));
      expect(result.current.value).toEqual(EMPTY);

      let outcome;
      await act(async () => {
        outcome = await result.current.update(() => ({ words: ['new'] }));
      });
      expect(outcome).toEqual({ ok: false, message: DAMAGED_DOCUMENT_MESSAGE });
      expect(api.to('PUT', PATH)).toHaveLength(0);

      await act(async () => {
        outcome = await result.current.reset();
      });
      expect(outcome).toEqual({ ok: true });
      await waitFor(() => expect(result.current.status).toBe('ready'));
      expect((api.to('PUT', PATH)[0]!.body as { revision: number }).revision).toBe(3);
    });
  }

  it('with no vault unlocked fetches nothing, is "error", and says to unlock when asked to save', async () => {
    const api = fakeApi(accountDocumentRoutes().routes);
    const { result } = renderDocument(new Keyring());
    expect(result.current.status).toBe('error');
    let outcome;
    await act(async () => {
      outcome = await result.current.update(() => ({ words: ['x'] }));
    });
    expect(outcome).toEqual({ ok: false, message: 'Unlock your vault to save this.' });
    expect(api.requests.filter((request) => request.path.startsWith('/api/account'))).toEqual([]);
  });

  it('is "error" when the read fails, and a failed save says why in words', async () => {
    const { keyring } = await unlockedKeyring();
    const api = fakeApi({ [route('GET', PATH)]: 'network-error' });
    const { result } = renderDocument(keyring);
    await waitFor(() => expect(result.current.status).toBe('error'));
    api.set(route('GET', PATH), { status: 200, body: { message: 'Success', data: null } });
    api.set(route('PUT', PATH), { status: 500, body: { message: 'Something went wrong on our side.' } });
    let outcome;
    await act(async () => {
      outcome = await result.current.update(() => ({ words: ['x'] }));
    });
    expect(outcome).toEqual({ ok: false, message: 'Not saved: the server had a problem. Try again in a moment.' });
  });
});

describe('sealAccountDocument', () => {
  it('binds the document to its kind: it opens as that kind only', async () => {
    const key = await importVaultKey(generateVaultKeyBytes());
    const sealed = await sealAccountDocument(key, 'health-settings', { words: ['a'] });
    expect(await openAccountDocument(key, 'health-settings', sealed, schema)).toEqual({ ok: true, value: { words: ['a'] } });
    expect(await openAccountDocument(key, 'generator-history', sealed, schema)).toEqual({ ok: false });
    expect(await openAccountDocument(key, 'generator-settings', sealed, schema)).toEqual({ ok: false });
  });
});
