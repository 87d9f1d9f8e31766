import { accountRefOf } from '@lockit/client-core';
import { describe, expect, it, vi } from 'vitest';
import { makeUnlockedVault } from '@/testing/crypto-fixtures';
import { Keyring, PREFETCHED_LIST_FRESH_MS } from './keyring';

describe('Keyring', () => {
  it('starts locked and holds the unlocked vault until clear()', async () => {
    const keyring = new Keyring();
    expect(keyring.vault).toBeNull();
    const { vault } = await makeUnlockedVault('alice', 'pw');
    keyring.unlock(vault);
    expect(keyring.vault?.vaultKey).toBe(vault.vaultKey);
    keyring.clear();
    expect(keyring.vault).toBeNull();
  });

  it('holds the vault key only as a non-extractable CryptoKey', async () => {
    const keyring = new Keyring();
    keyring.unlock((await makeUnlockedVault('alice', 'pw')).vault);
    expect(keyring.vault?.vaultKey.extractable).toBe(false);
    await expect(crypto.subtle.exportKey('raw', keyring.vault!.vaultKey)).rejects.toThrow();
  });

  it('never serialises its key material', async () => {
    const keyring = new Keyring();
    const { vault } = await makeUnlockedVault('alice', 'pw');
    keyring.unlock(vault);
    const text = JSON.stringify({ keyring });
    expect(text).toBe('{"keyring":{"unlocked":true}}');
    expect(text).not.toContain(vault.protectedKey);
  });

  it('writes nothing to web storage', async () => {
    const setItem = vi.spyOn(Storage.prototype, 'setItem');
    const keyring = new Keyring();
    keyring.unlock((await makeUnlockedVault('alice', 'pw')).vault);
    keyring.rename('bob', await accountRefOf('bob'));
    keyring.clear();
    expect(setItem).not.toHaveBeenCalled();
    expect(localStorage.length).toBe(0);
    expect(sessionStorage.length).toBe(0);
  });

  it('replaces key material after a password change but keeps the same vault key', async () => {
    const keyring = new Keyring();
    const { vault } = await makeUnlockedVault('alice', 'pw');
    keyring.unlock(vault);
    const material = { kdf: { ...vault.kdf, iterations: 3 }, salt: 'AAAAAAAAAAAAAAAAAAAAAA', protectedKey: 'v1.x.y' };
    keyring.replaceKeyMaterial(material);
    expect(keyring.vault).toMatchObject({ ...material, username: 'alice' });
    expect(keyring.vault?.vaultKey).toBe(vault.vaultKey);
  });

  it('notifies subscribers of every change, and not after unsubscribing', async () => {
    const keyring = new Keyring();
    const listener = vi.fn();
    const unsubscribe = keyring.subscribe(listener);
    keyring.unlock((await makeUnlockedVault('alice', 'pw')).vault);
    keyring.rename('bob', await accountRefOf('bob'));
    keyring.clear();
    expect(listener).toHaveBeenCalledTimes(3);
    unsubscribe();
    keyring.clear();
    keyring.rename('carol', await accountRefOf('carol'));
    expect(listener).toHaveBeenCalledTimes(3);
  });

  it('ignores renames and key changes while locked', async () => {
    const keyring = new Keyring();
    keyring.rename('bob', await accountRefOf('bob'));
    keyring.replaceKeyMaterial({
      kdf: { algorithm: 'argon2id', memoryKiB: 19456, iterations: 2, parallelism: 1 },
      salt: 's',
      protectedKey: 'p',
    });
    expect(keyring.vault).toBeNull();
  });

  describe('the list fetched at sign-in', () => {
    const list = (...ids: string[]) => Promise.resolve(ids.map((id) => ({ id })));

    it('goes to the first view of that vault key, once: a second view fetches the vault as it is now', async () => {
      const keyring = new Keyring();
      const { vault } = await makeUnlockedVault('alice', 'pw');
      keyring.unlock(vault);
      const entries = list('a', 'b');
      keyring.holdPrefetchedList(vault.vaultKey, entries, 1_000);
      expect(keyring.takePrefetchedList(vault.vaultKey, 1_000 + PREFETCHED_LIST_FRESH_MS)).toBe(entries);
      expect(keyring.takePrefetchedList(vault.vaultKey, 1_000)).toBeUndefined();
    });

    it('is not used once older than the freshness window, nor for another vault key', async () => {
      const keyring = new Keyring();
      const alice = (await makeUnlockedVault('alice', 'pw')).vault;
      keyring.unlock(alice);
      keyring.holdPrefetchedList(alice.vaultKey, list('a'), 0);
      expect(keyring.takePrefetchedList(alice.vaultKey, PREFETCHED_LIST_FRESH_MS + 1)).toBeUndefined();

      const other = (await makeUnlockedVault('alice', 'pw')).vault;
      keyring.holdPrefetchedList(alice.vaultKey, list('a'), 0);
      expect(keyring.takePrefetchedList(other.vaultKey, 0)).toBeUndefined();
    });

    it('is dropped by clear(), by an unlock with another key, by a failed fetch and when the window ends', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'Date'] });
      try {
        const keyring = new Keyring();
        const alice = (await makeUnlockedVault('alice', 'pw')).vault;
        const bob = (await makeUnlockedVault('bob', 'pw')).vault;
        keyring.unlock(alice);

        keyring.holdPrefetchedList(alice.vaultKey, list('a'));
        keyring.clear();
        keyring.unlock(alice);
        expect(keyring.takePrefetchedList(alice.vaultKey)).toBeUndefined();

        keyring.holdPrefetchedList(alice.vaultKey, list('a'));
        keyring.unlock(bob);
        keyring.unlock(alice);
        expect(keyring.takePrefetchedList(alice.vaultKey)).toBeUndefined();

        keyring.holdPrefetchedList(alice.vaultKey, Promise.reject(new Error('offline')));
        await vi.advanceTimersByTimeAsync(0);
        expect(keyring.takePrefetchedList(alice.vaultKey)).toBeUndefined();

        keyring.holdPrefetchedList(alice.vaultKey, list('a'));
        await vi.advanceTimersByTimeAsync(PREFETCHED_LIST_FRESH_MS);
        // Dropped by its timer, whatever the clock the caller passes.
        expect(keyring.takePrefetchedList(alice.vaultKey, 0)).toBeUndefined();
      } finally {
        vi.useRealTimers();
      }
    });

    it('is held only while that vault key is the one unlocked', async () => {
      const keyring = new Keyring();
      const { vault } = await makeUnlockedVault('alice', 'pw');
      keyring.holdPrefetchedList(vault.vaultKey, list('a'));
      expect(keyring.takePrefetchedList(vault.vaultKey)).toBeUndefined();
    });
  });
});
