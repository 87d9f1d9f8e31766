import { describe, expect, it } from 'vitest';
import {
  apiPaths,
  folderResponseSchema,
  listFoldersResponseSchema,
  maxCiphertextLength,
  FOLDER_NAME_LIMIT,
} from '@lockit/contract';
import { signedInUser } from './helpers/accounts';
import { encryptFolderName, newFolder } from './helpers/folders';
import { useTestApp } from './helpers/test-app';

const h = useTestApp();
const NOT_FOUND = { message: 'Folder not found.' };
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const remove = (id: string, revision?: unknown) =>
  `${apiPaths.folder(id)}${revision === undefined ? '' : `?revision=${String(revision)}`}`;

async function vaultRevision(username: string): Promise<number> {
  const row = await h.db.selectFrom('users').select('vault_revision').where('username', '=', username).executeTakeFirstOrThrow();
  return Number(row.vault_revision);
}

describe('POST /api/folders and GET /api/folders', () => {
  it('adds a folder (201) with its name as sent, and lists the caller’s folders oldest first', async () => {
    const { account, client } = await signedInUser(h);
    expect((await client.get(apiPaths.folders)).json()).toEqual({ message: 'Success', data: [] });
    const work = await newFolder(account, 'Work');
    const response = await client.post(apiPaths.folders, work);
    expect(response.statusCode).toBe(201);
    const answer = folderResponseSchema.parse(response.json());
    expect(answer).toEqual({
      message: 'Folder added',
      data: { ...work, revision: 1, createdAt: expect.stringMatching(ISO), updatedAt: answer.data.createdAt },
    });
    h.clock.advance(1_000);
    const banking = (await client.post(apiPaths.folders, await newFolder(account, 'Work/Banking'))).json().data;
    const listed = listFoldersResponseSchema.parse((await client.get(apiPaths.folders)).json());
    expect(listed.data).toEqual([answer.data, banking]);
  });

  it('refuses a plaintext name, a bad id, a missing name and an oversized one, with readable 400s', async () => {
    const { account, client } = await signedInUser(h);
    const good = await newFolder(account, 'Work');
    const cases: Array<[unknown, string]> = [
      [{ ...good, name: 'Work' }, 'name must be a Lockit ciphertext (v1.<iv>.<data>), never plaintext'],
      [{ ...good, id: 'folder-1' }, 'id must be a UUID'],
      [{ id: good.id }, 'name is required'],
      [
        { ...good, name: `${good.name}${'A'.repeat(maxCiphertextLength(FOLDER_NAME_LIMIT))}` },
        `name is longer than ${maxCiphertextLength(FOLDER_NAME_LIMIT)} characters`,
      ],
    ];
    for (const [body, message] of cases) {
      const response = await client.post(apiPaths.folders, body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message });
    }
    expect((await client.get(apiPaths.folders)).json().data).toEqual([]);
  });

  it('refuses an id this account already has (409) and changes nothing; ids are per account', async () => {
    const alice = await signedInUser(h);
    const bob = await signedInUser(h);
    const folder = await newFolder(alice.account, 'Mine');
    const added = (await alice.client.post(apiPaths.folders, folder)).json().data;
    for (const body of [folder, { ...folder, id: folder.id.toUpperCase() }]) {
      const response = await alice.client.post(apiPaths.folders, body);
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({ message: 'A folder with that id already exists.' });
    }
    // Another account's folder under the same id is its own: nothing tells Bob that Alice has one.
    const theirs = await bob.client.post(apiPaths.folders, await newFolder(bob.account, 'Theirs', folder.id));
    expect(theirs.statusCode).toBe(201);
    expect((await alice.client.get(apiPaths.folders)).json().data).toEqual([added]);
    expect((await bob.client.get(apiPaths.folders)).json().data).toEqual([theirs.json().data]);
  });
});

describe('PUT /api/folders/{id}', () => {
  it('renames at the revision given, and bumps it', async () => {
    const { account, client } = await signedInUser(h);
    const folder = await newFolder(account, 'Work');
    const added = (await client.post(apiPaths.folders, folder)).json().data;
    h.clock.advance(1_000);
    const name = await encryptFolderName(account, folder.id, 'Office');
    const response = await client.put(apiPaths.folder(folder.id), { name, revision: 1 });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      message: 'Folder renamed',
      data: { ...added, name, revision: 2, updatedAt: expect.stringMatching(ISO) },
    });
    expect(Date.parse(response.json().data.updatedAt)).toBeGreaterThan(Date.parse(added.updatedAt));
    expect((await client.get(apiPaths.folders)).json().data).toEqual([response.json().data]);
  });

  it('refuses a stale revision with 409 and the folder as it is now; a missing one with 400', async () => {
    const { account, client } = await signedInUser(h);
    const folder = await newFolder(account, 'Work');
    await client.post(apiPaths.folders, folder);
    const renamed = (
      await client.put(apiPaths.folder(folder.id), { name: await encryptFolderName(account, folder.id, 'A'), revision: 1 })
    ).json().data;
    const stale = await client.put(apiPaths.folder(folder.id), {
      name: await encryptFolderName(account, folder.id, 'B'),
      revision: 1,
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({ message: 'This folder was changed elsewhere. Reload and try again.', data: renamed });
    const missing = await client.put(apiPaths.folder(folder.id), { name: renamed.name });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ message: 'revision is required: the revision this change is based on' });
    const plaintext = await client.put(apiPaths.folder(folder.id), { name: 'B', revision: 2 });
    expect(plaintext.json()).toEqual({ message: 'name must be a Lockit ciphertext (v1.<iv>.<data>), never plaintext' });
    expect((await client.get(apiPaths.folders)).json().data).toEqual([renamed]);
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    const { account, client } = await signedInUser(h);
    const folder = await newFolder(account, 'Nowhere');
    expect((await client.put(apiPaths.folder(folder.id), { name: folder.name, revision: 1 })).json()).toEqual(NOT_FOUND);
    const malformed = await client.put(apiPaths.folder('x'), { name: folder.name, revision: 1 });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ message: 'id must be a UUID' });
  });
});

describe('DELETE /api/folders/{id}?revision=N', () => {
  it('deletes the folder at the revision given', async () => {
    const { account, client } = await signedInUser(h);
    const folder = await newFolder(account, 'Old');
    await client.post(apiPaths.folders, folder);
    const response = await client.delete(remove(folder.id, 1));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Folder deleted' });
    expect((await client.get(apiPaths.folders)).json().data).toEqual([]);
    expect((await client.delete(remove(folder.id, 1))).json()).toEqual(NOT_FOUND);
  });

  it('refuses a stale revision (409, with the folder) and a missing one (400); the folder stays', async () => {
    const { account, client } = await signedInUser(h);
    const folder = await newFolder(account, 'Keep');
    await client.post(apiPaths.folders, folder);
    const renamed = (
      await client.put(apiPaths.folder(folder.id), { name: await encryptFolderName(account, folder.id, 'Kept'), revision: 1 })
    ).json().data;
    const stale = await client.delete(remove(folder.id, 1));
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({ message: 'This folder was changed elsewhere. Reload and try again.', data: renamed });
    for (const url of [remove(folder.id), remove(folder.id, 'two'), remove(folder.id, -1)]) {
      const response = await client.delete(url);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(/^revision /);
    }
    expect((await client.get(apiPaths.folders)).json().data).toEqual([renamed]);
  });
});

describe('folders and the vault revision', () => {
  it('goes up with every folder write, and not with a refused one', async () => {
    const { account, client } = await signedInUser(h);
    const folder = await newFolder(account, 'Work');
    const start = await vaultRevision(account.username);
    await client.post(apiPaths.folders, folder);
    expect(await vaultRevision(account.username)).toBe(start + 1);
    await client.put(apiPaths.folder(folder.id), { name: folder.name, revision: 1 });
    expect(await vaultRevision(account.username)).toBe(start + 2);
    expect((await client.put(apiPaths.folder(folder.id), { name: folder.name, revision: 1 })).statusCode).toBe(409);
    expect((await client.post(apiPaths.folders, folder)).statusCode).toBe(409);
    expect(await vaultRevision(account.username)).toBe(start + 2);
    await client.delete(remove(folder.id, 2));
    expect(await vaultRevision(account.username)).toBe(start + 3);
  });
});

describe("another account's folders", () => {
  it('are invisible, and cannot be renamed or deleted: 404, and nothing changes', async () => {
    const alice = await signedInUser(h);
    const bob = await signedInUser(h);
    const folder = await newFolder(alice.account, 'Private');
    const added = (await alice.client.post(apiPaths.folders, folder)).json().data;
    expect((await bob.client.get(apiPaths.folders)).json().data).toEqual([]);
    for (const id of [folder.id, folder.id.toUpperCase()]) {
      const rename = await bob.client.put(apiPaths.folder(id), {
        name: await encryptFolderName(bob.account, id, 'Mine now'),
        revision: 1,
      });
      expect(rename.statusCode).toBe(404);
      expect(rename.json()).toEqual(NOT_FOUND);
      const deleted = await bob.client.delete(remove(id, 1));
      expect(deleted.statusCode).toBe(404);
      expect(deleted.json()).toEqual(NOT_FOUND);
    }
    expect((await alice.client.get(apiPaths.folders)).json().data).toEqual([added]);
  });
});
