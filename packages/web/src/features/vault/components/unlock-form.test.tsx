import { apiPaths } from '@lockit/contract';
import { importVaultKey, randomSalt } from '@lockit/crypto';
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { deriveKeys } from '@/lib/derive-keys';
import { checkRememberedKdfParams, rememberKdfParams, rememberKeyGeneration } from '@/testing/device-memory-by-name';
import { Keyring } from '@/lib/keyring';
import { FLOOR_KDF, makeAccountKeys } from '@/testing/crypto-fixtures';
import { bindSessionInThisBrowser, fakeApi, route, signedInAnswers, type FakeRoute } from '@/testing/fake-api';
import { pageRoutes } from '@/testing/page-routes';
import { renderApp } from '@/testing/render-app';
import { fakeEntryRoutes, sealedEntry } from '@/testing/vault-fixtures';
import { VaultPage } from './vault-page';

// The real key derivation, watched: a refused KDF must not reach it.
vi.mock('@/lib/derive-keys', async (importOriginal) => {
  const real = await importOriginal<typeof import('@/lib/derive-keys')>();
  return { ...real, deriveKeys: vi.fn(real.deriveKeys) };
});

const routes = pageRoutes({ '/vault': <VaultPage /> });
const MASTER = 'correct horse battery staple';

interface Material {
  kdf: unknown;
  salt: string;
  protectedKey: string;
}

/**
 * A tab signed in as "alice" without the vault key; `answer` turns the true key material into the
 * server's answer. `serverName` is the name the server gives the session's account; `bound: false`
 * is a browser that has no record of signing this session in.
 */
async function lockedVault(
  answer: (material: Material) => FakeRoute = (data) => ({ status: 200, body: { message: 'Success', data } }),
  { serverName = 'alice', bound = true }: { serverName?: string; bound?: boolean } = {},
) {
  if (bound) bindSessionInThisBrowser('alice');
  const account = await makeAccountKeys(MASTER);
  const vaultKey = await importVaultKey(account.vaultKeyBytes.slice());
  const entry = await sealedEntry(vaultKey, { serviceName: 'GitHub', username: 'alice', password: 'gh-secret' });
  const material = { kdf: account.kdf, salt: account.salt, protectedKey: account.protectedKey };
  const api = fakeApi({
    ...signedInAnswers({ username: serverName, email: 'alice@example.com', fullname: 'Alice Liddell' }),
    ...fakeEntryRoutes([entry]).routes,
    [route('GET', apiPaths.keyMaterial)]: answer(material),
  });
  const keyring = new Keyring();
  const app = renderApp('/vault', { routes, keyring });
  const form = await screen.findByRole('form', { name: 'Unlock' });
  const type = (password: string) => app.user.type(within(form).getByLabelText('Master Password'), password);
  const submit = () => app.user.click(within(form).getByRole('button', { name: 'Unlock' }));
  const unlock = async (password: string) => {
    await type(password);
    await submit();
  };
  return { api, app, keyring, unlock, type, submit, material };
}

describe('Unlock', () => {
  it('unlocks the vault with the master password alone, without a new sign-in', async () => {
    const { api, keyring, unlock, material } = await lockedVault();
    vi.mocked(deriveKeys).mockClear();
    await unlock(MASTER);

    expect(await screen.findByRole('listitem', { name: 'GitHub' })).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Unlock' })).not.toBeInTheDocument();
    expect(keyring.vault).toMatchObject({
      username: 'alice',
      kdf: material.kdf,
      salt: material.salt,
      protectedKey: material.protectedKey,
    });
    expect(keyring.vault?.vaultKey.extractable).toBe(false);
    expect(deriveKeys).toHaveBeenCalledTimes(1);
    expect(api.to('POST', apiPaths.login)).toHaveLength(0);
    expect(api.to('POST', apiPaths.prelogin)).toHaveLength(0);
    // Nothing derived from the password travels: the only calls are the session check, the
    // key material and the list, none with a body (but the vault's first integrity state, an
    // HMAC under a key derived from the vault key: decision 0053).
    expect(api.requests.filter((r) => r.body !== undefined && r.path !== apiPaths.vaultState)).toEqual([]);
    expect(JSON.stringify(api.requests)).not.toContain(MASTER);
  });

  it('fetches the entry list while the key is derived, and only once', async () => {
    const { api, type, submit } = await lockedVault();
    const derive = vi.mocked(deriveKeys);
    const real = derive.getMockImplementation()!;
    let sentBeforeDerivation: string[] = [];
    derive.mockImplementationOnce((...args) => {
      sentBeforeDerivation = api.requests.map((r) => `${r.method} ${r.path}`);
      return real(...args);
    });
    await type(MASTER);
    await submit();
    await screen.findByRole('listitem', { name: 'GitHub' });
    expect(sentBeforeDerivation.slice(-2)).toEqual([`GET ${apiPaths.keyMaterial}`, `GET ${apiPaths.listEntries}`]);
    expect(api.to('GET', apiPaths.listEntries)).toHaveLength(1);
  });

  it('says so and stays locked when the master password is wrong', async () => {
    const { keyring, unlock } = await lockedVault();
    await unlock('not my password');

    expect(await screen.findByRole('alert')).toHaveTextContent('That master password did not unlock your vault.');
    expect(screen.getByRole('form', { name: 'Unlock' })).toBeInTheDocument();
    expect(keyring.vault).toBeNull();
    expect(screen.queryByRole('list', { name: 'Saved passwords' })).not.toBeInTheDocument();
  });

  it('refuses KDF settings below the policy in plain words, deriving nothing', async () => {
    const weak = { ...FLOOR_KDF, memoryKiB: 1024, iterations: 1 };
    const { api, keyring, unlock } = await lockedVault((material) => ({
      status: 200,
      body: { message: 'Success', data: { ...material, kdf: weak } },
    }));
    vi.mocked(deriveKeys).mockClear();
    await unlock(MASTER);

    expect(await screen.findByRole('alert')).toHaveTextContent(/weaker than Lockit allows/);
    expect(deriveKeys).not.toHaveBeenCalled();
    expect(keyring.vault).toBeNull();
    expect(api.requests.map((r) => `${r.method} ${r.path}`).at(-1)).toBe(`GET ${apiPaths.keyMaterial}`);
    expect(api.to('GET', apiPaths.listEntries)).toHaveLength(0);
  });

  it('refuses KDF settings weaker than this browser already used for the account, deriving nothing', async () => {
    await rememberKdfParams('alice', { ...FLOOR_KDF, iterations: FLOOR_KDF.iterations + 1 });
    const { keyring, unlock } = await lockedVault();
    vi.mocked(deriveKeys).mockClear();
    await unlock(MASTER);

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The server asked for key-derivation settings weaker than the ones this browser already used for this account (passes 3, this browser used 4).',
    );
    expect(deriveKeys).not.toHaveBeenCalled();
    expect(keyring.vault).toBeNull();
  });

  // The server chooses the name the session check and the profile answer; this browser's memory
  // is found by the account its own sign-in bound, so no name the server picks can hide it.
  for (const [what, serverName] of [
    ['a look-alike name (Cyrillic а)', '\u0430lice'],
    ['the name in another case', 'ALICE'],
    ['no name at all', ''],
  ] as const) {
    it(`refuses a key older than this browser saw when the server gives the account ${what}`, async () => {
      await rememberKeyGeneration('alice', 1);
      const { keyring, unlock } = await lockedVault(undefined, { serverName });
      vi.mocked(deriveKeys).mockClear();
      await unlock(MASTER);

      expect(await screen.findByRole('alert')).toHaveTextContent(
        'The server answered an older key (generation 0) than this browser has already seen for this account (generation 1)',
      );
      expect(deriveKeys).not.toHaveBeenCalled();
      expect(keyring.vault).toBeNull();
    });
  }

  it('refuses to unlock a session this browser has no record of signing in, and says how to go on', async () => {
    const { keyring, unlock } = await lockedVault(undefined, { bound: false });
    vi.mocked(deriveKeys).mockClear();
    await unlock(MASTER);

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This browser does not know which account this session belongs to. Log out, then sign in again to unlock.',
    );
    expect(deriveKeys).not.toHaveBeenCalled();
    expect(keyring.vault).toBeNull();
  });

  it('remembers the params of a vault key that unwrapped, for this account only', async () => {
    const { unlock } = await lockedVault();
    await unlock(MASTER);
    await screen.findByRole('listitem', { name: 'GitHub' });
    const weaker = { ...FLOOR_KDF, memoryKiB: FLOOR_KDF.memoryKiB - 1024 };
    await expect(checkRememberedKdfParams('Alice', weaker)).rejects.toThrow(/this browser already used/);
    await expect(checkRememberedKdfParams('bob', weaker)).resolves.toBeUndefined();
  });

  it('stays locked when the server altered the salt, which the wrapped key binds', async () => {
    const { keyring, unlock } = await lockedVault((material) => ({
      status: 200,
      body: { message: 'Success', data: { ...material, salt: randomSalt() } },
    }));
    await unlock(MASTER);
    expect(await screen.findByRole('alert')).toHaveTextContent('That master password did not unlock your vault.');
    expect(keyring.vault).toBeNull();
  });

  it('says the key could not be fetched when the key-material call fails, and logs it', async () => {
    const { keyring, unlock } = await lockedVault(() => 'network-error');
    await unlock(MASTER);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      "Lockit could not get your vault's key from the server. Please try again.",
    );
    expect(console.warn).toHaveBeenCalledWith(
      '[Lockit] Unlocking the vault failed: Network error: the server could not be reached.',
    );
    expect(keyring.vault).toBeNull();
  });

  it('shows progress while the key is derived', async () => {
    const { type, submit } = await lockedVault();
    await type(MASTER);
    const done = submit();
    expect(await screen.findByText('Unlocking your vault…')).toBeInTheDocument();
    await done;
    expect(await screen.findByRole('listitem', { name: 'GitHub' })).toBeInTheDocument();
  });
});
