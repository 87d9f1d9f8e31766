import { apiPaths, parseVaultState } from '@lockit/contract';
import { deriveVaultIntegrityKey, importVaultKey, unwrapVaultKey } from '@lockit/crypto';
import type { VerifiedAccount } from '@lockit/test-support';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  loadVaultSnapshot,
  MissingHistoryError,
  openDraft,
  openEntry,
  openEntryHistory,
  openFolders,
  rotateVaultKey,
  RotationStoppedError,
  VaultIntegrity,
  type RotationProgress,
} from '../src';
import { databaseKind, startCoreTestServer, type CoreTestServer } from './support/core-against-server';
import { coreVaultOf, loginDraft, type CoreVault } from './support/core-vault';

let env: CoreTestServer;
beforeAll(async () => {
  env = await startCoreTestServer();
});
afterAll(async () => {
  await env?.stop();
});
beforeEach(() => env.proxy.clearRules());

const saved = <R extends { kind: string }>(result: R): Extract<R, { kind: 'saved' }> => {
  if (result.kind !== 'saved') throw new Error(`expected a saved result, got ${result.kind}`);
  return result as Extract<R, { kind: 'saved' }>;
};

/**
 * An account (its own: a rotation changes its keys) with a vault holding two live entries, one
 * of them edited (a history), one entry in Trash and a folder, open in a client that talks to
 * the lying proxy (honest until a test adds a rule).
 */
async function vaultWithEverything(): Promise<{
  verified: VerifiedAccount;
  client: CoreVault;
  ids: { bank: string; mail: string; gone: string; folder: string };
}> {
  const verified = await env.account();
  const client = await coreVaultOf(verified, env.proxy.url);
  await client.check();
  const folder = saved(await client.folders.add('Work'));
  const bank = await client.entries.add(loginDraft({ serviceName: 'Birch Bank', username: 'ada', password: 'first!' }));
  saved(
    await client.entries.update(
      bank.id,
      1,
      loginDraft({ serviceName: 'Birch Bank', username: 'ada', password: 'second!', folderId: folder.folder.id }),
    ),
  );
  const mail = await client.entries.add(loginDraft({ serviceName: 'Mail', username: 'ada', password: 'm41l' }));
  const gone = await client.entries.add(loginDraft({ serviceName: 'Old forum', username: 'ada', password: 'f0rum' }));
  saved(await client.entries.trash(gone.id, 1));
  return { verified, client, ids: { bank: bank.id, mail: mail.id, gone: gone.id, folder: folder.folder.id } };
}

function rotate(verified: VerifiedAccount, client: CoreVault, progress: RotationProgress[] = []) {
  const { account } = verified;
  return rotateVaultKey(
    { api: client.api, deviceMemory: client.device.memory },
    {
      vault: {
        account: client.account,
        vaultKey: client.vaultKey,
        integrityKey: client.integrityKey,
        kdf: account.kdf,
        salt: account.salt,
        keyGeneration: account.keyGeneration,
        keyEpoch: 0,
      },
      authKey: account.keys.authKey,
      wrapKey: account.keys.wrapKey,
      onProgress: (step) => progress.push(step),
    },
  );
}

/** Everything the server holds of the vault and its key, as served (to compare before and after). */
async function storedVault(client: CoreVault) {
  const [material, state, list, folders] = await Promise.all([
    client.api.call('key-material', {}),
    client.api.call('get-vault-state', {}),
    client.api.call('list-entries', {}),
    client.api.call('list-folders', {}),
  ]);
  const histories = await client.api.call('entry-histories', { body: { ids: list.data.map((entry) => entry.id) } });
  return { material: material.data, state: state.data, list: list.data, folders: folders.data, histories: histories.data };
}

describe(`the client core's key rotation against the real server (${databaseKind})`, () => {
  it('rotates a vault with entries, history, folders and Trash; the vault opens and checks under the new key only', async () => {
    const { verified, client, ids } = await vaultWithEverything();
    const before = await storedVault(client);
    const progress: RotationProgress[] = [];
    const done = await rotate(verified, client, progress);
    expect(done.keys).toMatchObject({ keyGeneration: verified.account.keyGeneration + 1, keyEpoch: 1 });
    expect(progress[0]).toEqual({ step: 'reading' });
    expect(progress.at(-1)).toEqual({ step: 'switching' });
    expect(progress).toContainEqual({ step: 're-encrypting', done: 4, total: 4 });

    // The new key as the next unlock finds it: unwrapped from the stored key material with the password's wrap key.
    const material = (await client.api.call('key-material', {})).data;
    expect(material.protectedKey).toBe(done.keys.protectedKey);
    const bytes = await unwrapVaultKey(
      material.protectedKey,
      verified.account.keys.wrapKey,
      verified.account.kdf,
      verified.account.salt,
      done.keys.keyGeneration,
      done.keys.keyEpoch,
    );
    const vaultKey = await importVaultKey(bytes.slice());
    const integrityKey = await deriveVaultIntegrityKey(bytes.slice());

    // A fresh client's whole-vault check passes under the new integrity key, at counter + 1.
    const integrity = new VaultIntegrity(integrityKey, vaultKey, client.account, {
      api: client.api,
      memory: client.device.memory,
      load: (names) => loadVaultSnapshot(client.api, integrityKey, vaultKey, names),
    });
    await integrity.check(await loadVaultSnapshot(client.api, integrityKey, vaultKey));
    expect(integrity.report).toBeNull();
    const stateAfter = parseVaultState((await client.api.call('get-vault-state', {})).data.state ?? '');
    expect(stateAfter?.counter).toBe((parseVaultState(before.state.state ?? '')?.counter ?? 0) + 1);
    expect(stateAfter?.trashed).toBe(1);

    const list = (await client.api.call('list-entries', {})).data;
    const byId = new Map(list.map((wire) => [wire.id, wire]));
    expect((await openDraft(vaultKey, await openEntryOrThrow(vaultKey, byId.get(ids.bank)))).password).toBe('second!');
    expect((await openDraft(vaultKey, await openEntryOrThrow(vaultKey, byId.get(ids.mail)))).password).toBe('m41l');
    expect(byId.get(ids.gone)?.deletedAt).not.toBeNull();
    expect((await openEntryOrThrow(vaultKey, byId.get(ids.gone))).serviceName).toBe('Old forum');
    const history = await openEntryHistory(client.api, vaultKey, ids.bank);
    expect(history.map((version) => version.draft?.password)).toEqual(['first!']);
    const folders = await openFolders(vaultKey, (await client.api.call('list-folders', {})).data);
    expect(folders.map((folder) => folder.name)).toEqual(['Work']);

    // The old key opens nothing the server holds now.
    for (const wire of list) expect((await openEntry(client.vaultKey, wire))?.status).not.toBe('open');
  });

  it('refuses, with nothing changed, when the server withholds a history during the read', async () => {
    const { verified, client, ids } = await vaultWithEverything();
    const before = await storedVault(client);
    const sentBefore = env.proxy.recorded.length;
    env.proxy.rewrite({
      method: 'POST',
      path: apiPaths.entryHistories,
      rewrite: (response) => {
        const body = response.body as { message: string; data: { id: string }[] };
        return { ...body, data: body.data.filter((item) => item.id !== ids.bank) };
      },
    });
    await expect(rotate(verified, client)).rejects.toBeInstanceOf(MissingHistoryError);
    env.proxy.clearRules();
    expect(await storedVault(client)).toEqual(before);
    expect(env.proxy.recorded.slice(sentBefore).some((request) => request.path.startsWith(apiPaths.keyRotation))).toBe(false);
  });

  it('refuses, with nothing changed, when the server withholds an entry during the read', async () => {
    const { verified, client, ids } = await vaultWithEverything();
    const before = await storedVault(client);
    const sentBefore = env.proxy.recorded.length;
    env.proxy.rewrite({
      method: 'GET',
      path: apiPaths.listEntries,
      rewrite: (response) => {
        const body = response.body as { message: string; data: { id: string }[] };
        return { ...body, data: body.data.filter((item) => item.id !== ids.mail) };
      },
    });
    const refused = rotate(verified, client);
    await expect(refused).rejects.toBeInstanceOf(RotationStoppedError);
    await expect(refused).rejects.toThrow("The server's copy of your vault is older or incomplete");
    env.proxy.clearRules();
    expect(await storedVault(client)).toEqual(before);
    expect(env.proxy.recorded.slice(sentBefore).some((request) => request.path.startsWith(apiPaths.keyRotation))).toBe(false);
  });
});

async function openEntryOrThrow(vaultKey: CryptoKey, wire: unknown) {
  const opened = await openEntry(vaultKey, wire);
  if (opened?.status !== 'open') throw new Error('the entry does not open');
  return opened;
}
