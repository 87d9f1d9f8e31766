import { DEFAULT_KDF_PARAMS, KeyEpochRolledBackError, KeyGenerationRolledBackError } from '@lockit/crypto';
import { describe, expect, it } from 'vitest';
import { MemoryKeyValueStore } from '../platform/key-value-store';
import { accountRefOf, sameAccountName } from './account-ref';
import { DeviceMemory, RememberedKdfDowngradeError } from './device-memory';

const fresh = () => {
  const store = new MemoryKeyValueStore();
  return { store, memory: new DeviceMemory(store) };
};

describe('account refs', () => {
  it('are the same for the same name in another case or normal form', async () => {
    expect(await accountRefOf('Alice')).toBe(await accountRefOf('alice'));
    // NFKC folds the full-width letters the server folds too.
    expect(await accountRefOf('ａｌｉｃｅ')).toBe(await accountRefOf('alice'));
  });

  it('differ for a look-alike name in another script', async () => {
    const cyrillicA = '\u0430lice';
    expect(sameAccountName(cyrillicA, 'alice')).toBe(false);
    expect(await accountRefOf(cyrillicA)).not.toBe(await accountRefOf('alice'));
  });

  it('keep the storage names browsers used before, a SHA-256 of the folded name, so no memory is lost', async () => {
    const { store, memory } = fresh();
    await memory.rememberKdfParams(await accountRefOf('Alice'), DEFAULT_KDF_PARAMS);
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode('alice')));
    const hex = Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
    expect(store.keys()).toEqual([`lockit.kdfFloor.${hex}`]);
    expect(await store.get(`lockit.kdfFloor.${hex}`)).toBe(JSON.stringify({ memoryKiB: 65536, iterations: 3, parallelism: 4 }));
  });

  it('never store the name itself', async () => {
    const { store, memory } = fresh();
    await memory.rememberVaultCounter(await accountRefOf('alice'), 3);
    expect(store.keys().join()).not.toContain('alice');
  });
});

describe('the session account', () => {
  it('is what sign-in bound, whatever the server later calls the account', async () => {
    const { memory } = fresh();
    const alice = await accountRefOf('alice');
    expect(await memory.sessionAccount()).toBeNull();
    await memory.bindSession(alice);
    expect(await memory.sessionAccount()).toBe(alice);
    await memory.unbindSession();
    expect(await memory.sessionAccount()).toBeNull();
  });

  it('is read as none when the stored value is not a ref', async () => {
    const { store, memory } = fresh();
    await store.set('lockit.sessionAccount', 'alice');
    expect(await memory.sessionAccount()).toBeNull();
  });

  it("finds a passkey's account by the authenticator's user handle", async () => {
    const { memory } = fresh();
    const alice = await accountRefOf('alice');
    expect(await memory.accountOfUserHandle('0b5c7e4e-1111-4c3a-9e57-1d6f1e0a8c11')).toBeNull();
    await memory.rememberUserHandle('0b5c7e4e-1111-4c3a-9e57-1d6f1e0a8c11', alice);
    expect(await memory.accountOfUserHandle('0b5c7e4e-1111-4c3a-9e57-1d6f1e0a8c11')).toBe(alice);
  });
});

describe('key generation memory', () => {
  it('refuses a generation lower than the highest seen, and only rises', async () => {
    const { memory } = fresh();
    const alice = await accountRefOf('alice');
    await memory.rememberKeyGeneration(alice, 3);
    await memory.rememberKeyGeneration(alice, 2);
    await expect(memory.checkKeyGeneration(alice, 2)).rejects.toBeInstanceOf(KeyGenerationRolledBackError);
    await expect(memory.checkKeyGeneration(alice, 3)).resolves.toBeUndefined();
  });

  it('refuses nothing for an account it never saw', async () => {
    const { memory } = fresh();
    await expect(memory.checkKeyGeneration(await accountRefOf('bob'), 0)).resolves.toBeUndefined();
  });
});

describe('KDF memory', () => {
  it('refuses params weaker in any part than this device used, naming the part', async () => {
    const { memory } = fresh();
    const alice = await accountRefOf('alice');
    await memory.rememberKdfParams(alice, { ...DEFAULT_KDF_PARAMS, iterations: 5 });
    const refused = memory.checkKdfParams(alice, DEFAULT_KDF_PARAMS);
    await expect(refused).rejects.toBeInstanceOf(RememberedKdfDowngradeError);
    await expect(refused).rejects.toThrow(/passes 3, this browser used 5/);
    await expect(memory.checkKdfParams(alice, { ...DEFAULT_KDF_PARAMS, iterations: 6 })).resolves.toBeUndefined();
  });

  it('reads a damaged record as no memory', async () => {
    const { store, memory } = fresh();
    const alice = await accountRefOf('alice');
    await store.set(`lockit.kdfFloor.${alice}`, '{"memoryKiB":-1}');
    expect(await memory.remembersKdfParams(alice)).toBe(false);
  });
});

describe('vault counter memory', () => {
  it('keeps the highest counter and reads 0 for none', async () => {
    const { memory } = fresh();
    const alice = await accountRefOf('alice');
    expect(await memory.vaultCounter(alice)).toBe(0);
    await memory.rememberVaultCounter(alice, 7);
    await memory.rememberVaultCounter(alice, 4);
    expect(await memory.vaultCounter(alice)).toBe(7);
  });
});

describe('account document memory', () => {
  it('keeps the highest sealed revision per kind, reading 0 for none and for a damaged record', async () => {
    const { store, memory } = fresh();
    const alice = await accountRefOf('alice');
    expect(await memory.documentRevision(alice, 'health-settings')).toBe(0);
    await memory.rememberDocumentRevision(alice, 'health-settings', 4);
    await memory.rememberDocumentRevision(alice, 'health-settings', 2);
    await memory.rememberDocumentRevision(alice, 'generator-settings', 1);
    expect(await memory.documentRevision(alice, 'health-settings')).toBe(4);
    expect(await memory.documentRevision(alice, 'generator-settings')).toBe(1);
    // A kind named like an object's own property is just a kind.
    expect(await memory.documentRevision(alice, '__proto__')).toBe(0);
    await store.set(`lockit.documentRevisions.${alice}`, '["not", "ours"]');
    expect(await memory.documentRevision(alice, 'health-settings')).toBe(0);
  });
});

describe("the person's choice of an older vault", () => {
  it('lowers the counter to exactly the one shown, and forgets the newer manifest', async () => {
    const { memory } = fresh();
    const alice = await accountRefOf('alice');
    await memory.rememberVaultCounter(alice, 12);
    await memory.saveSealedManifest(alice, 'v1.sealed');
    await memory.acceptOlderVault(alice, 9);
    expect(await memory.vaultCounter(alice)).toBe(9);
    expect(await memory.sealedManifest(alice)).toBeNull();
    // From there it only rises again.
    await memory.rememberVaultCounter(alice, 8);
    expect(await memory.vaultCounter(alice)).toBe(9);
  });

  it('refuses a counter that is not a whole number, changing nothing', async () => {
    const { memory } = fresh();
    const alice = await accountRefOf('alice');
    await memory.rememberVaultCounter(alice, 12);
    await expect(memory.acceptOlderVault(alice, -1)).rejects.toThrow(RangeError);
    await expect(memory.acceptOlderVault(alice, 1.5)).rejects.toThrow(RangeError);
    expect(await memory.vaultCounter(alice)).toBe(12);
  });
});

describe('key epoch memory', () => {
  it('refuses an epoch lower than the highest seen, and only rises', async () => {
    const { memory } = fresh();
    const alice = await accountRefOf('alice');
    await memory.rememberKeyEpoch(alice, 2);
    await memory.rememberKeyEpoch(alice, 1);
    const refusal = await memory.checkKeyEpoch(alice, 1).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(KeyEpochRolledBackError);
    expect((refusal as Error).message).toBe(
      'The server answered a vault key from before a key rotation (key epoch 1), but this browser has already used the key that replaced it (key epoch 2). Your vault stays locked: the server may be replaying a key you rotated away.',
    );
    await expect(memory.checkKeyEpoch(alice, 2)).resolves.toBeUndefined();
  });

  it('refuses nothing for an account it never saw rotate, so keys made before epochs keep opening', async () => {
    const { memory } = fresh();
    await expect(memory.checkKeyEpoch(await accountRefOf('bob'), 0)).resolves.toBeUndefined();
  });

  it('is kept apart from the key generation, which a password change raises without a new key', async () => {
    const { memory } = fresh();
    const alice = await accountRefOf('alice');
    await memory.rememberKeyGeneration(alice, 7);
    await expect(memory.checkKeyEpoch(alice, 0)).resolves.toBeUndefined();
  });
});

describe('an account renamed on this device', () => {
  it('takes its whole memory and the session to the new name', async () => {
    const { store, memory } = fresh();
    const [alice, alicia] = await Promise.all([accountRefOf('alice'), accountRefOf('alicia')]);
    await memory.rememberKdfParams(alice, DEFAULT_KDF_PARAMS);
    await memory.rememberKeyGeneration(alice, 2);
    await memory.rememberKeyEpoch(alice, 1);
    await memory.rememberVaultCounter(alice, 9);
    await memory.saveSealedManifest(alice, 'v1.sealed');
    await memory.rememberDocumentRevision(alice, 'health-settings', 6);
    await memory.bindSession(alice);

    await memory.moveAccount(alice, alicia);

    await expect(memory.checkKeyGeneration(alicia, 1)).rejects.toBeInstanceOf(KeyGenerationRolledBackError);
    await expect(memory.checkKeyEpoch(alicia, 0)).rejects.toBeInstanceOf(KeyEpochRolledBackError);
    expect(await memory.vaultCounter(alicia)).toBe(9);
    expect(await memory.sealedManifest(alicia)).toBe('v1.sealed');
    expect(await memory.remembersKdfParams(alicia)).toBe(true);
    expect(await memory.sessionAccount()).toBe(alicia);
    expect(await memory.documentRevision(alicia, 'health-settings')).toBe(6);
    expect(store.keys().filter((key) => key.endsWith(alice))).toEqual([]);
  });
});

describe('a deleted account', () => {
  it('leaves nothing behind, so a new account of that name is no rollback', async () => {
    const { store, memory } = fresh();
    const alice = await accountRefOf('alice');
    await memory.rememberKdfParams(alice, DEFAULT_KDF_PARAMS);
    await memory.rememberKeyGeneration(alice, 3);
    await memory.rememberKeyEpoch(alice, 2);
    await memory.rememberVaultCounter(alice, 5);
    await memory.saveSealedManifest(alice, 'v1.sealed');
    await memory.rememberDocumentRevision(alice, 'generator-history', 2);
    await memory.bindSession(alice);

    await memory.forgetAccount(alice);

    await expect(memory.checkKeyGeneration(alice, 1)).resolves.toBeUndefined();
    expect(store.keys()).toEqual([]);
  });
});
