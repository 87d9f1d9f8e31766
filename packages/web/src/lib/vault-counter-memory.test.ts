import { describe, expect, it } from 'vitest';
import { accountStorageKey } from './kdf-memory';
import {
  forgetRememberedVaultCounter,
  moveRememberedVaultCounter,
  rememberedVaultCounter,
  rememberVaultCounter,
  VAULT_MANIFEST_STORAGE_PREFIX,
} from './vault-counter-memory';

const manifestKey = (name: string) => accountStorageKey(VAULT_MANIFEST_STORAGE_PREFIX, name);

describe("this browser's memory of an account's vault state counter", () => {
  it('only rises, per account, whatever the case of the name', async () => {
    await rememberVaultCounter('Alice', 7);
    await rememberVaultCounter('alice', 5);
    expect(await rememberedVaultCounter('ALICE')).toBe(7);
    expect(await rememberedVaultCounter('bob')).toBe(0);
  });

  it('follows a rename, with the sealed manifest, so the renamed account is still checked against it', async () => {
    await rememberVaultCounter('carol', 12);
    window.localStorage.setItem(await manifestKey('carol'), 'v2.sealed-manifest');
    await moveRememberedVaultCounter('carol', 'caroline');
    expect(await rememberedVaultCounter('caroline')).toBe(12);
    expect(await rememberedVaultCounter('carol')).toBe(0);
    expect(window.localStorage.getItem(await manifestKey('caroline'))).toBe('v2.sealed-manifest');
    expect(window.localStorage.getItem(await manifestKey('carol'))).toBeNull();
  });

  it('is forgotten with the manifest when the account is deleted, so a new account of that name starts afresh', async () => {
    await rememberVaultCounter('dave', 3);
    window.localStorage.setItem(await manifestKey('dave'), 'v2.sealed-manifest');
    await forgetRememberedVaultCounter('Dave');
    expect(await rememberedVaultCounter('dave')).toBe(0);
    expect(window.localStorage.getItem(await manifestKey('dave'))).toBeNull();
  });

  it('reads damaged memory as none', async () => {
    window.localStorage.setItem(await accountStorageKey('lockit.vaultCounter.', 'erin'), '"twelve"');
    expect(await rememberedVaultCounter('erin')).toBe(0);
  });
});
