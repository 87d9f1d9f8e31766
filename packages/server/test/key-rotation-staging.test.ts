import { describe, expect, it } from 'vitest';
import { apiPaths, KEY_ROTATION_PART_MAX_BYTES, KEY_ROTATION_TTL_MS } from '@lockit/contract';
import { generateVaultKeyBytes, newEntryId } from '@lockit/crypto';
import { createRepositories } from '../src/db/repositories/index';
import { deleteExpiredCodes } from '../src/jobs/cleanup-jobs';
import { makeKeyMaterial, newAccount, signedInUser } from './helpers/accounts';
import { reencrypt, seedVault, startRotation, userIdOf, vaultRevisionOf, vaultRows } from './helpers/key-rotation';
import { useTestApp } from './helpers/test-app';

const h = useTestApp();
const limited = useTestApp({ rateLimits: { passwordCheckPerAccount: { points: 3, durationSeconds: 600 } } });

const VAULT_CHANGED = { message: 'Your vault changed while Lockit read it. Try again.' };
const NOT_FOUND = { message: 'No key rotation with that id: it may have expired. Start again.' };
const NONE = { entries: 0, versions: 0, folders: 0, documents: 0, attachments: 0 };

const rotationsOf = (userId: string) => h.db.selectFrom('key_rotations').selectAll().where('user_id', '=', userId).execute();
const partsOf = (rotationId: string) =>
  h.db.selectFrom('key_rotation_parts').select(['kind', 'item_key']).where('rotation_id', '=', rotationId).execute();

/** Moves a rotation's expiry to now: the session stays valid, the rotation is over. */
async function expireRotation(id: string) {
  await h.db.updateTable('key_rotations').set({ expires_at: h.clock.now() }).where('id', '=', id).execute();
}

/** A signed-in user with a seeded vault, and that vault re-encrypted under a new key. */
async function seededUser() {
  const user = await signedInUser(h);
  await seedVault(user.account, user.client);
  const userId = await userIdOf(h.db, user.account.username);
  const rows = await vaultRows(h.db, userId);
  const part = await reencrypt(rows, user.account.vaultKeyBytes, generateVaultKeyBytes());
  return { ...user, userId, rows, part };
}

describe('POST /api/user/key-rotation (start)', () => {
  it('starts a rotation for the current password at the current vault revision: 201 with id, generation and expiry', async () => {
    const { account, client } = await signedInUser(h);
    const userId = await userIdOf(h.db, account.username);
    const started = await client.post(apiPaths.keyRotation, {
      authKey: account.keys.authKey,
      vaultRevision: await vaultRevisionOf(h.db, userId),
    });
    expect(started.statusCode).toBe(201);
    const { data } = started.json();
    expect(data).toEqual({ id: expect.any(String), keyGeneration: 0, expiresAt: expect.any(String) });
    const [row] = await rotationsOf(userId);
    expect(row!.id).toBe(data.id);
    expect(Number(row!.expires_at) - Number(row!.created_at)).toBe(KEY_ROTATION_TTL_MS);
    expect(new Date(data.expiresAt).getTime()).toBe(Number(row!.expires_at));
  });

  it('refuses a wrong auth key with 403, as change password does, and starts nothing', async () => {
    const { account, client } = await signedInUser(h);
    const other = await signedInUser(h, { password: 'someone else entirely' });
    const userId = await userIdOf(h.db, account.username);
    const response = await client.post(apiPaths.keyRotation, {
      authKey: other.account.keys.authKey,
      vaultRevision: await vaultRevisionOf(h.db, userId),
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ message: 'Current password is incorrect.' });
    expect(await rotationsOf(userId)).toEqual([]);
  });

  it('refuses a vault revision that is not the current one with 409, and starts nothing', async () => {
    const { account, client } = await signedInUser(h);
    await seedVault(account, client);
    const userId = await userIdOf(h.db, account.username);
    const stale = (await vaultRevisionOf(h.db, userId)) - 1;
    const response = await client.post(apiPaths.keyRotation, { authKey: account.keys.authKey, vaultRevision: stale });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual(VAULT_CHANGED);
    expect(await rotationsOf(userId)).toEqual([]);
  });

  it('refuses bad input with 400 naming the field', async () => {
    const { account, client } = await signedInUser(h);
    const response = await client.post(apiPaths.keyRotation, { authKey: account.keys.authKey });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/^vaultRevision /);
  });

  it('keeps one rotation per user: a new start deletes the older one and its parts', async () => {
    const { account, client, userId, part } = await seededUser();
    const first = await startRotation(h, account, client);
    expect((await client.put(apiPaths.keyRotationParts(first), { entries: part.entries })).statusCode).toBe(200);
    const second = await startRotation(h, account, client);
    expect((await rotationsOf(userId)).map((row) => row.id)).toEqual([second]);
    expect(await partsOf(first)).toEqual([]);
    expect((await client.put(apiPaths.keyRotationParts(first), { entries: part.entries })).json()).toEqual(NOT_FOUND);
  });

  it('is rationed by the per-account password-check limit it shares with change password', async () => {
    const { account, client } = await signedInUser(limited);
    const wrong = { authKey: (await newAccount({ password: 'someone else entirely' })).keys.authKey, vaultRevision: 0 };
    for (let i = 0; i < 3; i += 1) expect((await client.post(apiPaths.keyRotation, wrong)).statusCode).toBe(403);
    expect((await client.post(apiPaths.keyRotation, { ...wrong, authKey: account.keys.authKey })).statusCode).toBe(429);
    const next = await makeKeyMaterial('a new master password', account.vaultKeyBytes, undefined, 1);
    const change = await client.put(apiPaths.changePassword, {
      oldPassword: account.keys.authKey,
      newPassword: next.keys.authKey,
      kdf: next.kdf,
      salt: next.salt,
      protectedKey: next.protectedKey,
      keyGeneration: 1,
    });
    expect(change.statusCode).toBe(429);
  });
});

describe('PUT /api/user/key-rotation/{id}/parts', () => {
  it('stages parts, replaces an item sent again, and answers the counts staged so far', async () => {
    const { account, client, part, rows } = await seededUser();
    const id = await startRotation(h, account, client);
    const first = await client.put(apiPaths.keyRotationParts(id), { entries: part.entries, folders: part.folders });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ message: 'Staged', data: { ...NONE, entries: 3, folders: 1 } });
    const again = await client.put(apiPaths.keyRotationParts(id), {
      entries: part.entries.slice(0, 1),
      versions: part.versions,
      documents: part.documents,
    });
    expect(again.json().data).toEqual({ entries: 3, versions: 3, folders: 1, documents: 1, attachments: 0 });
    expect(rows.versions).toHaveLength(3);
    const staged = await h.db
      .selectFrom('key_rotation_parts')
      .select('payload')
      .where('rotation_id', '=', id)
      .where('kind', '=', 'entry')
      .where('item_key', '=', part.entries[0]!.id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(staged.payload).password).toBe(part.entries[0]!.password);
  });

  it("refuses ids that are not in the caller's vault (another user's included) with 400 naming them, staging nothing", async () => {
    const { account, client, part } = await seededUser();
    const bob = await seededUser();
    const id = await startRotation(h, account, client);
    const unknownVersion = { ...part.versions[0]!, revision: 99 };
    const response = await client.put(apiPaths.keyRotationParts(id), {
      entries: [...part.entries, bob.part.entries[0]!],
      versions: [unknownVersion],
      folders: bob.part.folders,
    });
    expect(response.statusCode).toBe(400);
    const { message } = response.json();
    expect(message).toContain(`entry ${bob.part.entries[0]!.id}`);
    expect(message).toContain(`version ${unknownVersion.entryId}:99`);
    expect(message).toContain(`folder ${bob.part.folders[0]!.id}`);
    expect(await partsOf(id)).toEqual([]);
  });

  it('refuses a document kind the account does not hold, and one item twice in a part, staging nothing', async () => {
    const { account, client, part } = await signedInUser(h).then(async (user) => ({
      ...user,
      part: await reencrypt(
        { entries: [], versions: [], folders: [], documents: [] },
        user.account.vaultKeyBytes,
        generateVaultKeyBytes(),
      ),
    }));
    const seeded = await seededUser();
    const id = await startRotation(h, account, client);
    const kind = await client.put(apiPaths.keyRotationParts(id), { ...part, documents: seeded.part.documents });
    expect(kind.statusCode).toBe(400);
    expect(kind.json().message).toContain('document generator-settings');

    const seededId = await startRotation(h, seeded.account, seeded.client);
    const entry = seeded.part.entries[0]!;
    const twice = await seeded.client.put(apiPaths.keyRotationParts(seededId), { entries: [entry, entry] });
    expect(twice.statusCode).toBe(400);
    expect(twice.json()).toEqual({ message: `This part holds entry ${entry.id} twice.` });
    expect(await partsOf(seededId)).toEqual([]);
  });

  it('answers 404 for an unknown id, an expired rotation, another user’s rotation and another session of the same user', async () => {
    const { account, client, part } = await seededUser();
    const bob = await seededUser();
    const phone = h.client();
    expect((await phone.post(apiPaths.login, { username: account.username, password: account.keys.authKey })).statusCode).toBe(
      200,
    );
    const id = await startRotation(h, account, client);
    const body = { entries: part.entries };
    expect((await client.put(apiPaths.keyRotationParts(newEntryId()), body)).json()).toEqual(NOT_FOUND);
    expect((await bob.client.put(apiPaths.keyRotationParts(id), { entries: bob.part.entries })).statusCode).toBe(404);
    expect((await phone.put(apiPaths.keyRotationParts(id), body)).statusCode).toBe(404);
    expect(await partsOf(id)).toEqual([]);
    await expireRotation(id);
    expect((await client.put(apiPaths.keyRotationParts(id), body)).json()).toEqual(NOT_FOUND);
  });

  it('refuses a body over KEY_ROTATION_PART_MAX_BYTES with 413, and a part of bad shape with 400', async () => {
    const { account, client, part } = await seededUser();
    const id = await startRotation(h, account, client);
    const padding = 'x'.repeat(KEY_ROTATION_PART_MAX_BYTES);
    const large = await client.put(apiPaths.keyRotationParts(id), { entries: part.entries, padding });
    expect(large.statusCode).toBe(413);
    const plain = await client.put(apiPaths.keyRotationParts(id), { entries: [{ ...part.entries[0]!, password: 'hunter2' }] });
    expect(plain.statusCode).toBe(400);
    expect((await client.put(apiPaths.keyRotationParts(id), { extra: [] })).statusCode).toBe(400);
    expect(await partsOf(id)).toEqual([]);
  });

  it('ends the rotation with 409 once the vault changed since the start', async () => {
    const { account, client, part, userId, rows } = await seededUser();
    const id = await startRotation(h, account, client);
    const untouched = rows.entries.find((row) => Number(row.revision) === 1)!;
    expect((await client.delete(`${apiPaths.deleteEntry(untouched.id)}?revision=1`)).statusCode).toBe(200);
    const response = await client.put(apiPaths.keyRotationParts(id), { entries: part.entries });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual(VAULT_CHANGED);
    expect(await rotationsOf(userId)).toEqual([]);
  });
});

describe('the end of rotations never committed', () => {
  it('the expired-codes job deletes expired rotations with their parts and keeps live ones', async () => {
    const old = await seededUser();
    const oldId = await startRotation(h, old.account, old.client);
    await old.client.put(apiPaths.keyRotationParts(oldId), { entries: old.part.entries });
    h.clock.advance(10 * 60 * 1000);
    const live = await seededUser();
    const liveId = await startRotation(h, live.account, live.client);
    await live.client.put(apiPaths.keyRotationParts(liveId), { entries: live.part.entries });
    const expiry = h.clock.now() - 10 * 60 * 1000 + KEY_ROTATION_TTL_MS;
    const job = { db: h.db, repos: createRepositories(h.db), config: h.config, now: () => expiry };
    const { keyRotations } = await deleteExpiredCodes(job, new AbortController().signal);
    expect(keyRotations).toBeGreaterThanOrEqual(1);
    expect(await rotationsOf(old.userId)).toEqual([]);
    expect(await partsOf(oldId)).toEqual([]);
    expect(await partsOf(liveId)).toHaveLength(3);
  });

  it('deleting the account deletes its rotation and parts', async () => {
    const { account, client, part, userId } = await seededUser();
    const id = await startRotation(h, account, client);
    await client.put(apiPaths.keyRotationParts(id), { entries: part.entries });
    expect((await client.delete(apiPaths.deleteAccount)).statusCode).toBe(200);
    expect(await rotationsOf(userId)).toEqual([]);
    expect(await partsOf(id)).toEqual([]);
  });
});
