import { apiPaths, formatVaultState, parseVaultState, type EntryVersionWire, type EntryWire } from '@lockit/contract';
import {
  deriveKeysFromPassword,
  deriveVaultIntegrityKey,
  entryElement,
  folderElement,
  generateVaultKeyBytes,
  importVaultKey,
  KeyEpochRolledBackError,
  KeyGenerationRolledBackError,
  openEntryFields,
  sealVaultState,
  sumOfElements,
  trashedElementOf,
  unwrapVaultKey,
  verifyVaultState,
} from '@lockit/crypto';
import { describe, expect, it } from 'vitest';
import { rememberVaultCounter } from '@/testing/device-memory-by-name';
import { z } from 'zod';
import { openFolder } from '@lockit/client-core';
import { openAccountDocument, sealAccountDocument } from '@/lib/account-documents';
import { ApiError, NetworkError } from '@/lib/api-errors';
import { checkRememberedKeyEpoch, checkRememberedKeyGeneration } from '@/testing/device-memory-by-name';
import type { UnlockedVault } from '@/lib/keyring';
import { makeUnlockedVault } from '@/testing/crypto-fixtures';
import { fakeApi, route, routePrefix, signedInRoutes, type FakeRoute } from '@/testing/fake-api';
import { keyRotationRoutes, type RotationServerVault } from '@/testing/key-rotation-routes';
import { openSealed, sealedEntry, sealedFolder } from '@/testing/vault-fixtures';
import { RotationOutcomeUnknownError, RotationStoppedError, type RotationProgress } from '@lockit/client-core';
import { rotateThisVault } from './use-key-rotation';

const PASSWORD = 'correct horse battery staple';

const asVersion = (entry: EntryWire): EntryVersionWire => ({
  revision: entry.revision,
  serviceName: entry.serviceName,
  username: entry.username,
  password: entry.password,
  url: entry.url,
  notes: entry.notes,
  overview: entry.overview,
  details: entry.details,
  savedAt: entry.createdAt,
  replacedAt: entry.updatedAt,
});

/** One account for the file: its Argon2id runs once. */
let account: ReturnType<typeof makeUnlockedVault> | undefined;
const theAccount = () => (account ??= makeUnlockedVault('alice', PASSWORD));
let passwordKeys: ReturnType<typeof deriveKeysFromPassword> | undefined;

/** The vault's state under `integrityKey` at `counter`: version 2, Trash counted with its trash times (`withTrash` false: version 1). */
async function stateOf(
  integrityKey: CryptoKey,
  counter: number,
  entries: EntryWire[],
  folders: { id: string; revision: number; name: string }[],
  withTrash = true,
) {
  const live = entries.filter((entry) => entry.deletedAt === null);
  const trashed = withTrash ? entries.filter((entry) => entry.deletedAt !== null) : [];
  const elements = await Promise.all([
    ...live.map((entry) => entryElement(integrityKey, entry)),
    ...trashed.map((entry) => trashedElementOf(integrityKey, entry, Date.parse(entry.deletedAt!))),
    ...folders.map((folder) => folderElement(integrityKey, folder)),
  ]);
  const counts = { counter, entries: live.length, folders: folders.length, sum: sumOfElements(elements) };
  return formatVaultState(await sealVaultState(integrityKey, withTrash ? { ...counts, trashed: trashed.length } : counts));
}

/** An account with a GitHub login (and an earlier version), a legacy entry, one in Trash, a folder and a document. */
async function makeVault() {
  const { account, vault } = await theAccount();
  const github = await sealedEntry(
    vault.vaultKey,
    {
      serviceName: 'GitHub',
      username: 'alice',
      password: 'new-pw',
      url: 'https://github.com',
      notes: 'work',
      totp: 'JBSWY3DPEHPK3PXP',
    },
    { revision: 3 },
  );
  const earlier = asVersion(
    await sealedEntry(
      vault.vaultKey,
      { serviceName: 'GitHub', username: 'alice', password: 'old-pw' },
      { id: github.id, revision: 2 },
    ),
  );
  const legacy = await sealedEntry(
    vault.vaultKey,
    { serviceName: 'Legacy', username: 'bob', password: 'legacy-pw' },
    { format: 'legacy' },
  );
  const trashed = await sealedEntry(
    vault.vaultKey,
    { serviceName: 'Gone', username: 'x', password: 'trash-pw' },
    { deletedAt: '2025-02-01T00:00:00.000Z' },
  );
  const folder = await sealedFolder(vault.vaultKey, 'Work', { revision: 2 });
  const settings = {
    kind: 'generator-settings' as const,
    ciphertext: await sealAccountDocument(vault.vaultKey, 'generator-settings', { length: 24 }),
    revision: 4,
    updatedAt: '2025-01-01T00:00:00.000Z',
  };
  const entries = [github, legacy, trashed];
  const serverVault: RotationServerVault = {
    entries,
    histories: { [github.id]: [earlier] },
    folders: [folder],
    documents: [settings],
    state: await stateOf(vault.integrityKey, 41, entries, [folder]),
  };
  const serverAccount = {
    authKey: account.authKey,
    kdf: vault.kdf,
    salt: vault.salt,
    protectedKey: vault.protectedKey,
    keyGeneration: 0,
  };
  return { vault, serverVault, serverAccount, github, legacy, trashed, folder };
}

async function run(vault: UnlockedVault, routes: Record<string, FakeRoute>) {
  const api = fakeApi({ ...signedInRoutes(), ...routes });
  const keys = await (passwordKeys ??= deriveKeysFromPassword(PASSWORD, vault.salt, vault.kdf));
  const progress: RotationProgress[] = [];
  const result = rotateThisVault(vault, keys, (p) => progress.push(p));
  return { api, keys, progress, result };
}

/** The new vault key, unwrapped from what the commit sent with the master password's wrap key. */
async function newKeysOf(protectedKey: string, wrapKey: CryptoKey, vault: UnlockedVault, generation: number, epoch = 1) {
  const bytes = await unwrapVaultKey(protectedKey, wrapKey, vault.kdf, vault.salt, generation, epoch);
  return { vaultKey: await importVaultKey(bytes), integrityKey: await deriveVaultIntegrityKey(bytes) };
}

describe("rotateThisVault (the client core's rotation on this tab)", () => {
  it('re-encrypts every entry, version, folder and document under a new key the old one cannot open', async () => {
    const { vault, serverVault, serverAccount, github, legacy, trashed, folder } = await makeVault();
    const rotation = keyRotationRoutes(serverVault, serverAccount);
    const { keys, result } = await run(vault, rotation.routes);
    await result;
    const { server } = rotation;
    const fresh = await newKeysOf(server.account.protectedKey, keys.wrapKey, vault, 1);

    const byId = new Map(server.entries.map((entry) => [entry.id, entry]));
    expect(await openSealed(fresh.vaultKey, github.id, byId.get(github.id)!)).toMatchObject({
      serviceName: 'GitHub',
      password: 'new-pw',
      notes: 'work',
      details: { totp: 'JBSWY3DPEHPK3PXP' },
    });
    // The format before items keeps its binding, and absent fields stay absent.
    expect(byId.get(legacy.id)).toMatchObject({ overview: null, details: null, url: null, notes: null });
    expect(await openSealed(fresh.vaultKey, legacy.id, byId.get(legacy.id)!)).toMatchObject({
      password: 'legacy-pw',
      overview: null,
    });
    expect(await openSealed(fresh.vaultKey, trashed.id, byId.get(trashed.id)!)).toMatchObject({ password: 'trash-pw' });
    const [version] = server.histories.get(github.id)!;
    expect(await openSealed(fresh.vaultKey, github.id, version!)).toMatchObject({ password: 'old-pw' });
    expect(await openFolder(fresh.vaultKey, server.folders[0])).toMatchObject({ id: folder.id, name: 'Work' });
    const document = server.documents.get('generator-settings')!;
    expect(await openAccountDocument(fresh.vaultKey, 'generator-settings', document.ciphertext, z.unknown())).toEqual({
      ok: true,
      value: { length: 24 },
    });

    // The old key opens none of it.
    for (const entry of server.entries) {
      await expect(openEntryFields(vault.vaultKey, entry.id, entry, ['serviceName'])).rejects.toThrow();
    }
    await expect(openEntryFields(vault.vaultKey, github.id, version!, ['password'])).rejects.toThrow();
    expect(await openFolder(vault.vaultKey, server.folders[0])).toBeNull();
    expect(await openAccountDocument(vault.vaultKey, 'generator-settings', document.ciphertext, z.unknown())).toEqual({
      ok: false,
    });
  });

  it('commits generation + 1 and an integrity state of the new live set that verifies under the new integrity key', async () => {
    const { vault, serverVault, serverAccount } = await makeVault();
    const rotation = keyRotationRoutes(serverVault, serverAccount);
    const { keys, result } = await run(vault, rotation.routes);
    const done = await result;
    const [commit] = rotation.server.commits as { protectedKey: string; keyGeneration: number; vaultState: string }[];
    expect(commit!.keyGeneration).toBe(1);

    const fresh = await newKeysOf(commit!.protectedKey, keys.wrapKey, vault, 1);
    // The wrap binds the generation: it does not open as the old one.
    await expect(unwrapVaultKey(commit!.protectedKey, keys.wrapKey, vault.kdf, vault.salt, 0)).rejects.toThrow();
    const state = parseVaultState(commit!.vaultState)!;
    expect(state).toMatchObject({ counter: 42, entries: 2, folders: 1 });
    expect(await verifyVaultState(fresh.integrityKey, state)).toBe(true);
    expect(await verifyVaultState(vault.integrityKey, state)).toBe(false);
    // What the server serves after the commit (revisions bumped) is exactly what the state sums.
    expect(commit!.vaultState).toBe(await stateOf(fresh.integrityKey, 42, rotation.server.entries, rotation.server.folders));

    expect(done.vault).toMatchObject({
      username: 'alice',
      protectedKey: commit!.protectedKey,
      keyGeneration: 1,
      salt: vault.salt,
    });
    expect(done.vault.reloadSeal).toBeDefined();
    const github = rotation.server.entries[0]!;
    expect(await openSealed(done.vault.vaultKey, github.id, github)).toMatchObject({ serviceName: 'GitHub' });
    expect(done.committed).toEqual({ keyGeneration: 1, vaultRevision: 8, passkeyUnlocksRemoved: 1, sessionsEnded: 2 });
    // This browser now refuses the old generation.
    await expect(checkRememberedKeyGeneration('alice', 0)).rejects.toBeInstanceOf(KeyGenerationRolledBackError);
  });

  it('commits the next key epoch, which the new wrap binds, and remembers it so the old key is refused here', async () => {
    const { vault, serverVault, serverAccount } = await makeVault();
    const rotation = keyRotationRoutes(serverVault, { ...serverAccount, keyEpoch: 2 });
    const { keys, result } = await run({ ...vault, keyEpoch: 2 }, rotation.routes);
    const done = await result;
    const [commit] = rotation.server.commits as { protectedKey: string; keyGeneration: number; keyEpoch: number }[];
    expect(commit!.keyEpoch).toBe(3);
    expect(done.vault.keyEpoch).toBe(3);
    await newKeysOf(commit!.protectedKey, keys.wrapKey, vault, 1, 3);
    for (const epoch of [0, 2]) {
      await expect(unwrapVaultKey(commit!.protectedKey, keys.wrapKey, vault.kdf, vault.salt, 1, epoch)).rejects.toThrow();
    }
    await expect(checkRememberedKeyEpoch('alice', 2)).rejects.toBeInstanceOf(KeyEpochRolledBackError);
  });

  it('starts the state at counter 1 for a vault that had none', async () => {
    const { vault, serverVault, serverAccount } = await makeVault();
    const rotation = keyRotationRoutes({ ...serverVault, state: null }, serverAccount);
    const { result } = await run(vault, rotation.routes);
    await result;
    expect(parseVaultState(rotation.server.state!)?.counter).toBe(1);
  });

  it('reports its progress: reading, every item re-encrypted, every item saved, then the switch', async () => {
    const { vault, serverVault, serverAccount } = await makeVault();
    const { progress, result } = await run(vault, keyRotationRoutes(serverVault, serverAccount).routes);
    await result;
    expect(progress[0]).toEqual({ step: 'reading' });
    expect(progress).toContainEqual({ step: 're-encrypting', done: 5, total: 5 });
    expect(progress).toContainEqual({ step: 'saving', done: 5, total: 5 });
    expect(progress.at(-1)).toEqual({ step: 'switching' });
  });

  it('stops before the start when items do not open under the old key, naming how many', async () => {
    const { vault, serverVault, serverAccount, github, folder } = await makeVault();
    const otherKey = await importVaultKey(generateVaultKeyBytes());
    const foreign = await sealedEntry(otherKey, { serviceName: 'Foreign', username: 'x', password: 'y' });
    const foreignFolder = await sealedFolder(otherKey, 'Elsewhere', { id: folder.id });
    const badVersion = asVersion(
      await sealedEntry(otherKey, { serviceName: 'GitHub', username: 'a', password: 'b' }, { id: github.id }),
    );
    const rotation = keyRotationRoutes(
      {
        ...serverVault,
        entries: [...serverVault.entries, foreign],
        folders: [foreignFolder],
        histories: { [github.id]: [badVersion] },
      },
      serverAccount,
    );
    const { api, result } = await run(vault, rotation.routes);
    await expect(result).rejects.toThrow(new RotationStoppedError('3 items could not be opened; fix or delete them first.'));
    expect(api.to('POST', apiPaths.keyRotation)).toHaveLength(0);
  });

  it('names one damaged item in the singular', async () => {
    const { vault, serverVault, serverAccount } = await makeVault();
    const foreign = await sealedEntry(await importVaultKey(generateVaultKeyBytes()), {
      serviceName: 'F',
      username: 'x',
      password: 'y',
    });
    const rotation = keyRotationRoutes({ ...serverVault, entries: [...serverVault.entries, foreign] }, serverAccount);
    const { result } = await run(vault, rotation.routes);
    await expect(result).rejects.toThrow('1 item could not be opened; fix or delete it first.');
  });

  it('refuses to rotate on top of a served vault its integrity state does not match (an entry withheld)', async () => {
    const { vault, serverVault, serverAccount, github } = await makeVault();
    const withheld = serverVault.entries.filter((entry) => entry.id !== github.id);
    const rotation = keyRotationRoutes({ ...serverVault, entries: withheld, histories: {} }, serverAccount);
    const { api, result } = await run(vault, rotation.routes);
    await expect(result).rejects.toThrow(/older or incomplete/);
    expect(api.to('POST', apiPaths.keyRotation)).toHaveLength(0);
  });

  it('refuses to rotate on top of a served vault whose Trash misses an entry its state holds (dropped from Trash)', async () => {
    const { vault, serverVault, serverAccount, trashed } = await makeVault();
    const dropped = serverVault.entries.filter((entry) => entry.id !== trashed.id);
    const rotation = keyRotationRoutes({ ...serverVault, entries: dropped, histories: {} }, serverAccount);
    const { api, result } = await run(vault, rotation.routes);
    await expect(result).rejects.toThrow(/older or incomplete/);
    expect(api.to('POST', apiPaths.keyRotation)).toHaveLength(0);
  });

  it('rotates a vault whose state does not cover Trash yet (version 1) into a version 2 state that does, trash times kept', async () => {
    const { vault, serverVault, serverAccount, folder } = await makeVault();
    const v1 = await stateOf(vault.integrityKey, 41, serverVault.entries, [folder], false);
    const rotation = keyRotationRoutes({ ...serverVault, state: v1 }, serverAccount);
    const { keys, result } = await run(vault, rotation.routes);
    await result;
    const [commit] = rotation.server.commits as { protectedKey: string; vaultState: string }[];
    const fresh = await newKeysOf(commit!.protectedKey, keys.wrapKey, vault, 1);
    expect(parseVaultState(commit!.vaultState)).toMatchObject({ counter: 42, entries: 2, trashed: 1, folders: 1 });
    expect(commit!.vaultState).toBe(await stateOf(fresh.integrityKey, 42, rotation.server.entries, rotation.server.folders));
  });

  it('refuses to rotate on top of an older state than this browser saw (a whole vault rolled back), or none after one', async () => {
    const { vault, serverVault, serverAccount } = await makeVault();
    await rememberVaultCounter('alice', 42);
    for (const state of [serverVault.state, null]) {
      const rotation = keyRotationRoutes({ ...serverVault, state }, serverAccount);
      const { api, result } = await run(vault, rotation.routes);
      await expect(result).rejects.toThrow(/older or incomplete/);
      expect(api.to('POST', apiPaths.keyRotation)).toHaveLength(0);
    }
  });

  it('stops when the account is at another key generation than this tab (a password changed elsewhere)', async () => {
    const { vault, serverVault, serverAccount } = await makeVault();
    const rotation = keyRotationRoutes(serverVault, { ...serverAccount, keyGeneration: 3 });
    const { api, result } = await run(vault, rotation.routes);
    await expect(result).rejects.toThrow(/changed on another device/);
    expect(api.requests.filter((r) => r.method === 'PUT' && r.path.startsWith(apiPaths.keyRotation))).toHaveLength(0);
  });

  it('stops at a part the server refuses, and never commits', async () => {
    const { vault, serverVault, serverAccount } = await makeVault();
    const rotation = keyRotationRoutes(serverVault, serverAccount);
    const { api, result } = await run(vault, {
      ...rotation.routes,
      [routePrefix('PUT', `${apiPaths.keyRotation}/`)]: { status: 500, body: { message: 'Internal server error.' } },
    });
    await expect(result).rejects.toBeInstanceOf(ApiError);
    expect(api.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/commit'))).toHaveLength(0);
    expect(rotation.server.account.protectedKey).toBe(serverAccount.protectedKey);
    await expect(checkRememberedKeyGeneration('alice', 0)).resolves.toBeUndefined();
  });

  it('passes a refused commit on with the server message, remembering nothing', async () => {
    const { vault, serverVault, serverAccount } = await makeVault();
    const rotation = keyRotationRoutes(serverVault, serverAccount);
    const { result } = await run(vault, {
      ...rotation.routes,
      [routePrefix('POST', `${apiPaths.keyRotation}/`)]: {
        status: 409,
        body: { message: 'Your vault changed while Lockit read it. Try again.' },
      },
    });
    await expect(result).rejects.toThrow(new RotationStoppedError('Your vault changed while Lockit read it. Try again.'));
    await expect(checkRememberedKeyGeneration('alice', 0)).resolves.toBeUndefined();
  });

  it('after a commit whose answer was lost, takes the new key when the key material shows it was committed', async () => {
    const { vault, serverVault, serverAccount } = await makeVault();
    const rotation = keyRotationRoutes(serverVault, serverAccount);
    const commit = rotation.routes[routePrefix('POST', `${apiPaths.keyRotation}/`)] as (r: never) => unknown;
    const { result } = await run(vault, {
      ...rotation.routes,
      [routePrefix('POST', `${apiPaths.keyRotation}/`)]: (request) => {
        commit(request as never);
        return 'network-error';
      },
    });
    const done = await result;
    expect(done.committed).toBeNull();
    expect(done.vault).toMatchObject({ protectedKey: rotation.server.account.protectedKey, keyGeneration: 1 });
  });

  it('after a commit whose answer was lost and did not happen, fails as the call failed', async () => {
    const { vault, serverVault, serverAccount } = await makeVault();
    const rotation = keyRotationRoutes(serverVault, serverAccount);
    const { result } = await run(vault, {
      ...rotation.routes,
      [routePrefix('POST', `${apiPaths.keyRotation}/`)]: 'network-error',
    });
    await expect(result).rejects.toBeInstanceOf(NetworkError);
  });

  it('says the outcome is unknown when neither the commit nor the key material answers', async () => {
    const { vault, serverVault, serverAccount } = await makeVault();
    const rotation = keyRotationRoutes(serverVault, serverAccount);
    const { result } = await run(vault, {
      ...rotation.routes,
      [routePrefix('POST', `${apiPaths.keyRotation}/`)]: 'network-error',
      [route('GET', apiPaths.keyMaterial)]: 'network-error',
    });
    await expect(result).rejects.toBeInstanceOf(RotationOutcomeUnknownError);
  });
});
