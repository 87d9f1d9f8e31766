import { DEFAULT_KDF_PARAMS } from '@lockit/crypto';
import { describe, expect, it } from 'vitest';
import { checkRememberedKdfParams, forgetRememberedKdfParams, rememberKdfParams } from './kdf-memory';
import { checkRememberedKeyGeneration, forgetRememberedKeyGeneration, rememberKeyGeneration } from './key-generation-memory';

describe('forgetting a deleted account', () => {
  it("drops this browser's remembered key generation, so a new account of that name is not called a rollback", async () => {
    await rememberKeyGeneration('Alice', 3);
    await expect(checkRememberedKeyGeneration('alice', 0)).rejects.toThrow();
    await forgetRememberedKeyGeneration('alice');
    await expect(checkRememberedKeyGeneration('alice', 0)).resolves.toBeUndefined();
    expect(Object.keys(window.localStorage)).toEqual([]);
  });

  it("drops this browser's remembered KDF params for that name only", async () => {
    const strong = { ...DEFAULT_KDF_PARAMS, memoryKiB: 128 * 1024 };
    await rememberKdfParams('alice', strong);
    await rememberKdfParams('bob', strong);
    await forgetRememberedKdfParams('Alice');
    await expect(checkRememberedKdfParams('alice', DEFAULT_KDF_PARAMS)).resolves.toBeUndefined();
    await expect(checkRememberedKdfParams('bob', DEFAULT_KDF_PARAMS)).rejects.toThrow();
  });
});
