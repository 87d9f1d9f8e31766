import { describe, expect, it } from 'vitest';
import { apiPaths, attachmentPaths, listAccountAttachmentsResponseSchema } from '@lockit/contract';
import { generateVaultKeyBytes, newEntryId } from '@lockit/crypto';
import { signedInUser } from './helpers/accounts';
import { putPart, sealedFile, uploadFile } from './helpers/attachments';
import { commitBody, reencrypt, seedVault, startRotation, userIdOf, vaultRows } from './helpers/key-rotation';
import { useTestApp } from './helpers/test-app';
import { TEST_DB_KIND } from './helpers/test-database';

const h = useTestApp();
const bytes = (size: number) => Uint8Array.from({ length: size }, (_, i) => (i * 7 + 3) & 0xff);

/** The stored rows of the account's files: what a rotation may change (the key) and may not (the rest). */
const fileRows = (userId: string) =>
  h.db
    .selectFrom('attachments')
    .select(['id', 'entry_id', 'wrapped_key', 'metadata', 'size', 'finished_at', 'updated_at'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();

/**
 * A seeded vault with a finished file on one live entry and an upload under way on another,
 * a started rotation, and the re-encrypted vault with both files' keys wrapped anew (the
 * server cannot tell a wrap from any other v1 text, so a fresh one stands in for it).
 */
async function rotationWithFiles() {
  const user = await signedInUser(h);
  const { entryIds } = await seedVault(user.account, user.client);
  const userId = await userIdOf(h.db, user.account.username);
  const finished = await uploadFile(user.client, entryIds[0]!, bytes(5000), 'scan.pdf');
  const underWay = await sealedFile(entryIds[1]!, bytes(10));
  expect((await user.client.post(attachmentPaths.list(entryIds[1]!), underWay.body)).statusCode).toBe(201);
  const newKeyBytes = generateVaultKeyBytes();
  const part = await reencrypt(await vaultRows(h.db, userId), user.account.vaultKeyBytes, newKeyBytes);
  const rewrap = async (entryId: string, id: string) => ({
    id,
    entryId,
    wrappedKey: (await sealedFile(entryId, bytes(1))).body.wrappedKey,
  });
  const attachments = [await rewrap(entryIds[0]!, finished.ids.fileId), await rewrap(entryIds[1]!, underWay.ids.fileId)];
  const id = await startRotation(h, user.account, user.client);
  return { ...user, userId, entryIds, finished, underWay, newKeyBytes, part, attachments, id };
}

type Run = Awaited<ReturnType<typeof rotationWithFiles>>;

async function stage(run: Run, body: object) {
  return run.client.put(apiPaths.keyRotationParts(run.id), body);
}

async function commit(run: Run) {
  return run.client.post(apiPaths.keyRotationCommit(run.id), await commitBody(run.account, run.newKeyBytes));
}

describe('GET /api/attachments', () => {
  it("lists every file of the account, uploads under way included, and none of another account's", async () => {
    const run = await rotationWithFiles();
    const listed = await run.client.get(attachmentPaths.all);
    expect(listed.statusCode).toBe(200);
    const data = listAccountAttachmentsResponseSchema.parse(listed.json()).data;
    expect(data.map((file) => [file.id, file.entryId, file.finished]).sort()).toEqual(
      [
        [run.finished.ids.fileId, run.entryIds[0], true],
        [run.underWay.ids.fileId, run.entryIds[1], false],
      ].sort(),
    );
    expect(data.find((file) => file.finished)?.wrappedKey).toBe(run.finished.body.wrappedKey);
    const other = await signedInUser(h);
    expect((await other.client.get(attachmentPaths.all)).json().data).toEqual([]);
  });
});

describe('key rotation carries the files: their keys are swapped with the vault', () => {
  it('swaps every file key in the commit; the metadata, the content and the upload under way stay as they were', async () => {
    const run = await rotationWithFiles();
    const before = await fileRows(run.userId);
    const staged = await stage(run, { ...run.part, attachments: run.attachments });
    expect(staged.statusCode, staged.body).toBe(200);
    expect(staged.json().data).toMatchObject({ attachments: 2 });
    const response = await commit(run);
    expect(response.statusCode, response.body).toBe(200);

    const after = await fileRows(run.userId);
    const sent = new Map(run.attachments.map((file) => [file.id, file.wrappedKey]));
    expect(after.map((row) => row.wrapped_key)).toEqual(before.map((row) => sent.get(row.id)));
    const rest = (rows: typeof before) => rows.map(({ wrapped_key: _key, ...row }) => row);
    expect(rest(after)).toEqual(rest(before));
    const content = await run.client.get(attachmentPaths.content(run.entryIds[0]!, run.finished.ids.fileId));
    expect(content.rawPayload.equals(run.finished.sealed)).toBe(true);
    // The upload goes on where it was, and finishes: its content was never under the vault key.
    const { ids, sealed } = run.underWay;
    expect((await putPart(run.client, ids.itemId, ids.fileId, 0, sealed)).statusCode).toBe(200);
    expect((await run.client.post(attachmentPaths.finish(ids.itemId, ids.fileId))).statusCode).toBe(200);
  });

  it('refuses a commit that misses a file, and changes nothing', async () => {
    const run = await rotationWithFiles();
    const before = await fileRows(run.userId);
    expect((await stage(run, { ...run.part, attachments: run.attachments.slice(0, 1) })).statusCode).toBe(200);
    const response = await commit(run);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ message: 'The re-encrypted vault is incomplete: 1 file missing. Nothing was changed.' });
    expect(await fileRows(run.userId)).toEqual(before);
  });

  it('refuses a commit naming a file deleted since it was staged, and changes nothing', async () => {
    const run = await rotationWithFiles();
    expect((await stage(run, { ...run.part, attachments: run.attachments })).statusCode).toBe(200);
    const gone = await run.client.delete(attachmentPaths.file(run.entryIds[1]!, run.underWay.ids.fileId));
    expect(gone.statusCode).toBe(200);
    const before = await fileRows(run.userId);
    const response = await commit(run);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      message: 'The re-encrypted vault is incomplete: 1 file no longer in the vault. Nothing was changed.',
    });
    expect(await fileRows(run.userId)).toEqual(before);
  });

  it('refuses to stage a file under another entry than its own, or one the account does not hold', async () => {
    const run = await rotationWithFiles();
    const [file] = run.attachments;
    const moved = await stage(run, { attachments: [{ ...file!, entryId: run.entryIds[1] }] });
    expect(moved.statusCode).toBe(400);
    expect(moved.json()).toEqual({
      message: `Not in your vault, so nothing of this part was staged: file ${run.entryIds[1]}:${file!.id}.`,
    });
    const other = await signedInUser(h);
    const theirs = await uploadFile(other.client, (await seedVault(other.account, other.client)).entryIds[0]!, bytes(3));
    const foreign = await stage(run, {
      attachments: [{ id: theirs.ids.fileId, entryId: theirs.ids.itemId, wrappedKey: file!.wrappedKey }],
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().message).toMatch(/^Not in your vault, so nothing of this part was staged: file /);
  });
});

describe('a file created while the key rotates is never left under the old key', () => {
  it('refuses a new file whose key was wrapped under an epoch the account has left, and takes the current one', async () => {
    const run = await rotationWithFiles();
    expect((await stage(run, { ...run.part, attachments: run.attachments })).statusCode).toBe(200);
    expect((await commit(run)).statusCode).toBe(200);
    const stale = await sealedFile(run.entryIds[0]!, bytes(4));
    const refused = await run.client.post(attachmentPaths.list(run.entryIds[0]!), { ...stale.body, keyEpoch: 0 });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      message: 'Your encryption key was rotated meanwhile, so this file was not attached. Reload Lockit and attach it again.',
    });
    expect(await h.db.selectFrom('attachments').select('id').where('id', '=', stale.ids.fileId).execute()).toEqual([]);
    const current = await run.client.post(attachmentPaths.list(run.entryIds[0]!), { ...stale.body, keyEpoch: 1 });
    expect(current.statusCode).toBe(201);
  });

  // SQLite runs one transaction at a time; PostgreSQL lets a create commit while the commit runs.
  it.runIf(TEST_DB_KIND === 'postgres')(
    'rolls the commit back when a file lands while it holds the users row (checked again after the swap)',
    async () => {
      const run = await rotationWithFiles();
      expect((await stage(run, { ...run.part, attachments: run.attachments })).statusCode).toBe(200);
      const before = await fileRows(run.userId);
      const late = newEntryId();
      let answer: ReturnType<typeof commit> | undefined;
      // A create as the server runs it: the users row held, the row written, committed once the
      // rotation's commit has passed its first check and waits for the users row.
      await h.db.transaction().execute(async (trx) => {
        await trx.selectFrom('users').select('key_epoch').where('id', '=', run.userId).forShare().execute();
        const now = Date.now();
        await trx
          .insertInto('attachments')
          .values({
            user_id: run.userId,
            id: late,
            entry_id: run.entryIds[0]!,
            wrapped_key: run.attachments[0]!.wrappedKey,
            metadata: run.finished.body.metadata,
            size: 100,
            finished_at: null,
            created_at: now,
            updated_at: now,
          })
          .execute();
        answer = commit(run);
        await new Promise((resolve) => setTimeout(resolve, 1500));
      });
      const response = await answer!;
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({ message: 'The re-encrypted vault is incomplete: 1 file missing. Nothing was changed.' });
      const after = await fileRows(run.userId);
      expect(after.filter((row) => row.id !== late)).toEqual(before);
      const user = await h.db.selectFrom('users').select('key_epoch').where('id', '=', run.userId).executeTakeFirstOrThrow();
      expect(Number(user.key_epoch)).toBe(0);
    },
  );
});
