import { describe, expect, it, vi } from 'vitest';
import { makeUnlockedVault } from '@/testing/crypto-fixtures';
import { Keyring } from './keyring';

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
    keyring.rename('bob');
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
    keyring.rename('bob');
    keyring.clear();
    expect(listener).toHaveBeenCalledTimes(3);
    unsubscribe();
    keyring.clear();
    keyring.rename('carol');
    expect(listener).toHaveBeenCalledTimes(3);
  });

  it('ignores renames and key changes while locked', () => {
    const keyring = new Keyring();
    keyring.rename('bob');
    keyring.replaceKeyMaterial({ kdf: { algorithm: 'argon2id', memoryKiB: 19456, iterations: 2, parallelism: 1 }, salt: 's', protectedKey: 'p' });
    expect(keyring.vault).toBeNull();
  });
});
