import { apiPaths, entryBatchRequestSchema, updateEntryRequestSchema } from '@lockit/contract';
import { openEntry, type OpenEntry } from '@lockit/client-core';
import { emptyTransferItem } from '@lockit/transfer';
import { describe, expect, it } from 'vitest';
import { fakeApi, route, routePrefix, signedInRoutes, type FakeRequest } from '@/testing/fake-api';
import { memoryServer } from '@/testing/memory-attachments';
import { unlockedKeyring } from '@/testing/vault-fixtures';
import { planImport } from './import-plan';
import { runImport, type ImportProgress } from './run-import';

const TAG = 'Imported from Test 2025-01-01';

async function plannedLogins(count: number) {
  const items = Array.from({ length: count }, (_, i) => ({
    ...emptyTransferItem('login', `Site ${i}`),
    // Plaintexts with characters no ciphertext (base64url) holds, so a match is a leak, never chance.
    username: `user.${i}@mail.test`,
    password: `secret-${i}`,
    urls: [`https://site${i}.example`],
    folder: i % 2 === 0 ? 'Work/Banking' : null,
  }));
  return planImport({ format: 'bitwarden-json', items, skipped: [] }, [], TAG);
}

const folderCreated = {
  status: 201,
  body: {
    message: 'Folder added',
    data: {
      id: crypto.randomUUID(),
      name: 'v1.a.b',
      revision: 1,
      createdAt: '2025-01-01T00:00:00.000Z',
      updatedAt: '2025-01-01T00:00:00.000Z',
    },
  },
};
const batchAnswer = (request: FakeRequest) => {
  const body = entryBatchRequestSchema.parse(request.body);
  return { status: 201, body: { message: 'Entries imported', data: { batchId: body.batchId, added: body.entries.length } } };
};

describe('runImport', () => {
  it('seals every item and sends them in calls of at most 500 under one batch id, with the folder made once', async () => {
    const { vault } = await unlockedKeyring();
    const api = fakeApi({
      ...signedInRoutes(),
      [route('POST', apiPaths.folders)]: folderCreated,
      [route('POST', apiPaths.entryBatch)]: batchAnswer,
    });
    const progress: ImportProgress[] = [];
    const plan = await plannedLogins(1_100);
    const outcome = await runImport({
      vaultKey: vault.vaultKey,
      plan,
      all: 'skip',
      own: new Map(),
      folders: [],
      onProgress: (p) => progress.push(p),
    });
    expect(outcome).toMatchObject({ ok: true, created: 1_100, updated: 0 });
    const calls = api.to('POST', apiPaths.entryBatch).map((request) => entryBatchRequestSchema.parse(request.body));
    expect(calls.map((call) => call.entries.length)).toEqual([500, 500, 100]);
    expect(new Set(calls.map((call) => call.batchId))).toEqual(new Set([outcome.ok ? outcome.batchId : '']));
    // The undo later names exactly these items (the vault state leaves with them).
    expect(outcome.ok && outcome.createdIds).toEqual(calls.flatMap((call) => call.entries.map((entry) => entry.id)));
    // Ciphertexts only: no password, name or user name of the file travels in the clear.
    expect(JSON.stringify(calls)).not.toMatch(/secret-|Site \d|user\.\d|@mail\.test/);
    expect(api.to('POST', apiPaths.folders)).toHaveLength(1);
    expect(progress.at(-1)).toEqual({ done: 2_200, total: 2_200 });
  });

  it('undoes what landed when a later call fails, and says so', async () => {
    const { vault } = await unlockedKeyring();
    let calls = 0;
    const api = fakeApi({
      ...signedInRoutes(),
      [route('POST', apiPaths.folders)]: folderCreated,
      [routePrefix('DELETE', apiPaths.folder(''))]: { status: 200, body: { message: 'Folder deleted' } },
      [route('POST', apiPaths.entryBatch)]: (request) =>
        ++calls === 1
          ? batchAnswer(request)
          : { status: 413, body: { message: 'This vault is full: it may hold 600 items, Trash included.' } },
      [routePrefix('DELETE', apiPaths.entryBatchUndo(''))]: {
        status: 200,
        body: { message: 'Import undone', data: { purged: 500, trashed: 0 } },
      },
    });
    const outcome = await runImport({
      vaultKey: vault.vaultKey,
      plan: await plannedLogins(700),
      all: 'skip',
      own: new Map(),
      folders: [],
      onProgress: () => {},
    });
    expect(outcome).toEqual({
      ok: false,
      batchId: expect.any(String),
      stranded: 0,
      strandedIds: [],
      message:
        'Nothing was imported: This vault is full: it may hold 600 items, Trash included. The 500 items saved before the failure were removed again.',
    });
    const undo = api.requests.filter((request) => request.method === 'DELETE' && request.path.startsWith('/api/entries/batch/'));
    expect(undo.map((request) => request.path)).toEqual([apiPaths.entryBatchUndo(outcome.ok ? '' : outcome.batchId)]);
    expect(
      api.requests.filter((request) => request.method === 'DELETE' && request.path.startsWith('/api/folders/')),
    ).toHaveLength(1);
  });

  it('lists each imported file in its new item before sending it, and saves the item again without one that did not go up', async () => {
    const { vault } = await unlockedKeyring();
    const MiB = 1024 * 1024;
    const at = '2025-01-01T00:00:00.000Z';
    const api = fakeApi({
      ...signedInRoutes(),
      [route('POST', apiPaths.entryBatch)]: batchAnswer,
      [routePrefix('PUT', apiPaths.updateEntry(''))]: (request) => {
        const { revision, ...fields } = updateEntryRequestSchema.parse(request.body);
        const id = request.path.split('/').at(-1)!;
        const wire = {
          url: null,
          notes: null,
          details: null,
          ...fields,
          id,
          revision: revision + 1,
          createdAt: at,
          updatedAt: at,
          deletedAt: null,
        };
        return { status: 200, body: { message: 'Password updated', data: wire } };
      },
    });
    const files = memoryServer({ maxFileBytes: MiB, maxAccountBytes: 1024 * MiB });
    const item = {
      ...emptyTransferItem('note', 'Passport'),
      attachments: [
        { name: 'scan.pdf', bytes: new Uint8Array(10) },
        { name: 'film.mp4', bytes: new Uint8Array(2 * MiB) },
      ],
    };
    const plan = await planImport({ format: 'bitwarden-json', items: [item], skipped: [] }, [], TAG);
    const outcome = await runImport({
      vaultKey: vault.vaultKey,
      plan,
      all: 'skip',
      own: new Map(),
      folders: [],
      onProgress: () => {},
      attachments: files.platform,
    });
    if (!outcome.ok) throw new Error(outcome.message);
    expect(outcome.files.failures.map((failure) => failure.fileName)).toEqual(['film.mp4']);

    const opened = async (body: unknown, revision: number) =>
      (await openEntry(vault.vaultKey, {
        url: null,
        notes: null,
        details: null,
        ...(body as object),
        revision,
        createdAt: at,
        updatedAt: at,
        deletedAt: null,
      })) as OpenEntry;
    const [created] = entryBatchRequestSchema.parse(api.to('POST', apiPaths.entryBatch)[0]!.body).entries;
    const first = await opened(created, 1);
    // Listed before any byte was sent: the item's first save names both, under the ids they go up under.
    expect(first.files!.map(({ name, size }) => [name, size])).toEqual([
      ['scan.pdf', 10],
      ['film.mp4', 2 * MiB],
    ]);
    expect([...files.files.keys()]).toEqual([first.files![0]!.id]);
    // The file refused by the limit is taken off the list in one more save.
    const [again] = api.requests.filter((request) => request.method === 'PUT');
    const second = await opened({ ...(again!.body as object), id: created!.id }, 2);
    expect(second.files).toEqual([first.files![0]]);
  });
});
