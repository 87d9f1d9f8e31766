import { apiPaths, attachmentPaths, parseVaultState } from '@lockit/contract';
import {
  AttachmentDecryptionError,
  ATTACHMENT_CHUNK_BYTES,
  deriveVaultIntegrityKey,
  importVaultKey,
  unwrapAttachmentKey,
  unwrapVaultKey,
  openShareLabel,
  sealShare,
  sealShareLabel,
} from '@lockit/crypto';
import type { VerifiedAccount } from '@lockit/test-support';
import { describe, expect, it } from 'vitest';
import {
  downloadAttachment,
  listAttachments,
  loadVaultSnapshot,
  MissingHistoryError,
  openDraft,
  openEntry,
  openEntryHistory,
  openFolders,
  rotateVaultKey,
  RotationStoppedError,
  VaultIntegrity,
  uploadAttachment,
  type OpenedAttachment,
  type RotationDone,
  type RotationProgress,
} from '../src';
import { attachmentPlatform, bytesSource, collect } from './support/attachment-device';
import { databaseKind } from './support/core-against-server';
import { useCoreServer } from './support/use-core-server';
import { coreVaultOf, loginDraft, type CoreVault } from './support/core-vault';

const env = useCoreServer();

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

/** The new vault key as the next unlock finds it: unwrapped from the stored key material with the password's wrap key. */
async function newVaultKeyOf(verified: VerifiedAccount, client: CoreVault, done: RotationDone<undefined>) {
  const material = (await client.api.call('key-material', {})).data;
  const bytes = await unwrapVaultKey(
    material.protectedKey,
    verified.account.keys.wrapKey,
    verified.account.kdf,
    verified.account.salt,
    done.keys.keyGeneration,
    done.keys.keyEpoch,
  );
  return importVaultKey(bytes);
}

/** Bytes the server must never see in the clear, made of a marker. */
const MARKER = 'FILE-PLAINTEXT-5c2e';
function fileBytes(size: number): Uint8Array {
  const text = new TextEncoder().encode(MARKER);
  return Uint8Array.from({ length: size }, (_, i) => text[i % text.length]!);
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

  it("seals each share link's owner label again under the new key, and leaves a label the old key does not open as it was", async () => {
    const { verified, client } = await vaultWithEverything();
    const labelled = await sealShare({ kind: 'text', text: 'guest wifi' }, null);
    const forged = await sealShare({ kind: 'text', text: 'another' }, null);
    const label = { itemId: 'wifi', title: 'Copy of Guest Wifi' };
    const create = async ({ sealed }: typeof labelled, sealedLabel: string) =>
      client.api.call('create-share-link', {
        body: { ...sealed, expiresInSeconds: 3600, maxOpenings: 1, deleteAfterOpening: false, label: sealedLabel },
      });
    await create(labelled, await sealShareLabel(client.vaultKey, labelled.sealed.id, label));
    // A label the old key does not open (as if the server changed it): not sealed anew.
    const foreign = await sealShareLabel(client.vaultKey, labelled.sealed.id, label);
    await create(forged, foreign);

    const done = await rotate(verified, client);
    const newKey = await newVaultKeyOf(verified, client, done);
    const links = new Map((await client.api.call('list-share-links', {})).data.map((link) => [link.id, link.label!]));
    expect(await openShareLabel(newKey, labelled.sealed.id, links.get(labelled.sealed.id)!)).toEqual(label);
    expect(await openShareLabel(client.vaultKey, labelled.sealed.id, links.get(labelled.sealed.id)!)).toBeNull();
    expect(links.get(forged.sealed.id)).toBe(foreign);
  });

  it('re-wraps every file key without re-sending a byte: the files open and download the same under the new key only', async () => {
    const { verified, client, ids } = await vaultWithEverything();
    const files = attachmentPlatform(verified.client, env.server.url);
    const scan = fileBytes(2 * ATTACHMENT_CHUNK_BYTES + 321);
    const codes = fileBytes(40);
    await uploadAttachment(files, client.vaultKey, ids.bank, bytesSource('bank-scan.pdf', scan, 'application/pdf'));
    await uploadAttachment(files, client.vaultKey, ids.mail, bytesSource('recovery-codes.txt', codes, 'text/plain'));
    const storedBefore = (await client.api.call('list-account-attachments', {})).data;
    const sentBefore = env.proxy.recorded.length;

    const progress: RotationProgress[] = [];
    const done = await rotate(verified, client, progress);
    expect(progress).toContainEqual({ step: 're-encrypting', done: 6, total: 6 });
    const sent = env.proxy.recorded.slice(sentBefore);
    expect(sent.some((request) => request.path.endsWith('/content'))).toBe(false);
    expect(sent.filter((request) => request.body.includes(MARKER) || request.body.includes('bank-scan'))).toEqual([]);

    // Each row's key was swapped; its sealed name, size and content were not.
    const storedAfter = (await client.api.call('list-account-attachments', {})).data;
    const byId = new Map(storedAfter.map((file) => [file.id, file]));
    for (const before of storedBefore) {
      const after = byId.get(before.id)!;
      expect(after.wrappedKey).not.toBe(before.wrappedKey);
      expect({ ...after, wrappedKey: '' }).toEqual({ ...before, wrappedKey: '' });
    }

    const newKey = await newVaultKeyOf(verified, client, done);
    const listed = await listAttachments(files, newKey, ids.bank);
    expect(listed.files).toMatchObject([{ kind: 'file', name: 'bank-scan.pdf', size: scan.length }]);
    expect(await collect(downloadAttachment(files, listed.files[0] as OpenedAttachment))).toEqual(scan);
    const mail = await listAttachments(files, newKey, ids.mail);
    expect(await collect(downloadAttachment(files, mail.files[0] as OpenedAttachment))).toEqual(codes);

    // The old key unwraps none of them any more.
    expect((await listAttachments(files, client.vaultKey, ids.bank)).files).toMatchObject([{ kind: 'damaged' }]);
    for (const file of storedAfter) {
      const fileIds = { itemId: file.entryId, fileId: file.id };
      await expect(unwrapAttachmentKey(client.vaultKey, file.wrappedKey, fileIds)).rejects.toBeInstanceOf(
        AttachmentDecryptionError,
      );
    }
    // A tab still holding the old key cannot attach a file that no key would open; the new key can.
    const late = uploadAttachment(files, client.vaultKey, ids.bank, bytesSource('late.txt', codes), { keyEpoch: 0 });
    await expect(late).rejects.toMatchObject({ status: 409 });
    await uploadAttachment(files, newKey, ids.bank, bytesSource('late.txt', codes), { keyEpoch: done.keys.keyEpoch });
    expect((await listAttachments(files, newKey, ids.bank)).files).toMatchObject([{ kind: 'file' }, { kind: 'file' }]);
  });

  it("refuses, with nothing changed, when the server serves a file's key for another file", async () => {
    const { verified, client, ids } = await vaultWithEverything();
    const files = attachmentPlatform(verified.client, env.server.url);
    await uploadAttachment(files, client.vaultKey, ids.bank, bytesSource('a.txt', fileBytes(10)));
    await uploadAttachment(files, client.vaultKey, ids.mail, bytesSource('b.txt', fileBytes(20)));
    const before = await storedVault(client);
    const keysBefore = (await client.api.call('list-account-attachments', {})).data;
    env.proxy.rewrite({
      method: 'GET',
      path: attachmentPaths.all,
      rewrite: (response) => {
        const body = response.body as { message: string; data: { wrappedKey: string }[] };
        const swapped = [...body.data].reverse().map((file) => file.wrappedKey);
        return { ...body, data: body.data.map((file, i) => ({ ...file, wrappedKey: swapped[i]! })) };
      },
    });
    const refused = rotate(verified, client);
    await expect(refused).rejects.toBeInstanceOf(RotationStoppedError);
    await expect(refused).rejects.toThrow('2 items could not be opened; fix or delete them first.');
    env.proxy.clearRules();
    expect(await storedVault(client)).toEqual(before);
    expect((await client.api.call('list-account-attachments', {})).data).toEqual(keysBefore);
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
