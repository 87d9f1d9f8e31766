import { describe, expect, it } from 'vitest';
import { apiPaths, VAULT_STATE_STALE } from '@lockit/contract';
import { decryptField, generateVaultKeyBytes, importVaultKey, unwrapVaultKey } from '@lockit/crypto';
import { login, signedInUser } from './helpers/accounts';
import {
  ciphertextsOf,
  commitBody,
  reencrypt,
  seedVault,
  startRotation,
  userIdOf,
  vaultRevisionOf,
  vaultRows,
  vaultStateAt,
} from './helpers/key-rotation';
import { useTestApp } from './helpers/test-app';

const h = useTestApp();

const VAULT_CHANGED = { message: 'Your vault changed while Lockit read it. Try again.' };
const NOT_FOUND = { message: 'No key rotation with that id: it may have expired. Start again.' };

/** A seeded vault, a started rotation, and every item re-encrypted under a new key (not yet uploaded). */
async function rotationUnderWay(seeded = true) {
  const user = await signedInUser(h);
  if (seeded) await seedVault(user.account, user.client);
  const userId = await userIdOf(h.db, user.account.username);
  const before = await vaultRows(h.db, userId);
  const newKeyBytes = generateVaultKeyBytes();
  const part = await reencrypt(before, user.account.vaultKeyBytes, newKeyBytes);
  const id = await startRotation(h, user.account, user.client);
  return { ...user, userId, before, newKeyBytes, part, id };
}

type UnderWay = Awaited<ReturnType<typeof rotationUnderWay>>;

async function uploadAll(run: UnderWay) {
  const response = await run.client.put(apiPaths.keyRotationParts(run.id), run.part);
  expect(response.statusCode, response.body).toBe(200);
}

function commit(run: UnderWay, body?: object) {
  return commitBody(run.account, run.newKeyBytes).then((made) =>
    run.client.post(apiPaths.keyRotationCommit(run.id), { ...made, ...body }),
  );
}

const userRow = (userId: string) =>
  h.db
    .selectFrom('users')
    .select(['protected_key', 'key_generation', 'vault_revision', 'vault_state', 'vault_state_counter'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();

/** Everything a refused commit must leave as it was. */
async function snapshot(userId: string) {
  return { user: await userRow(userId), rows: await vaultRows(h.db, userId) };
}

describe('POST /api/user/key-rotation/{id}/commit', () => {
  it('swaps every ciphertext: none of the old ones is left in entries, history, folders or account documents', async () => {
    const run = await rotationUnderWay();
    await uploadAll(run);
    const revision = await vaultRevisionOf(h.db, run.userId);
    const response = await commit(run);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      message: 'Your encryption key was rotated.',
      data: { keyGeneration: 1, vaultRevision: revision + 1, passkeyUnlocksRemoved: 0, sessionsEnded: 0 },
    });

    const after = await vaultRows(h.db, run.userId);
    const old = new Set(ciphertextsOf(run.before));
    expect(ciphertextsOf(after).filter((text) => old.has(text))).toEqual([]);
    expect([after.entries.length, after.versions.length, after.folders.length, after.documents.length]).toEqual([3, 3, 1, 1]);
    const sent = [
      ...[...run.part.entries, ...run.part.versions].flatMap((item) =>
        [item.serviceName, item.username, item.password, item.url, item.notes, item.overview, item.details].filter(
          (value): value is string => typeof value === 'string',
        ),
      ),
      ...run.part.folders.map((folder) => folder.name),
      ...run.part.documents.map((document) => document.document),
    ];
    expect(ciphertextsOf(after).sort()).toEqual(sent.sort());
    // The new key opens what the server now serves; the old one opens nothing of it.
    const [newKey, oldKey] = [await importVaultKey(run.newKeyBytes), await importVaultKey(run.account.vaultKeyBytes)];
    const entry = after.entries[0]!;
    expect(await decryptField(newKey, entry.id, 'serviceName', entry.service_name)).toMatch(/^site\d$/);
    await expect(decryptField(oldKey, entry.id, 'serviceName', entry.service_name)).rejects.toThrow();
    expect(await h.db.selectFrom('key_rotations').select('id').where('user_id', '=', run.userId).execute()).toEqual([]);
    expect(await h.db.selectFrom('key_rotation_parts').select('item_key').where('rotation_id', '=', run.id).execute()).toEqual(
      [],
    );
  });

  it('raises the key generation, stores the new wrapped key and the vault state, and bumps the vault revision', async () => {
    const run = await rotationUnderWay();
    await uploadAll(run);
    const revision = await vaultRevisionOf(h.db, run.userId);
    const body = await commitBody(run.account, run.newKeyBytes);
    expect((await run.client.post(apiPaths.keyRotationCommit(run.id), body)).statusCode).toBe(200);
    const row = await userRow(run.userId);
    expect(row).toEqual({
      protected_key: body.protectedKey,
      key_generation: 1,
      vault_revision: revision + 1,
      vault_state: body.vaultState,
      vault_state_counter: 1,
    });
    const signIn = (await login(h.client(), run.account)).json().data;
    expect(signIn.keyGeneration).toBe(1);
    const unwrapped = await unwrapVaultKey(
      signIn.protectedKey,
      run.account.keys.wrapKey,
      run.account.kdf,
      run.account.salt,
      1,
      1,
    );
    expect(unwrapped).toEqual(run.newKeyBytes);
  });

  it('bumps each entry and folder revision by one (history keeps its own), so an old tab’s write is refused', async () => {
    const run = await rotationUnderWay();
    await uploadAll(run);
    expect((await commit(run)).statusCode).toBe(200);
    const after = await vaultRows(h.db, run.userId);
    const revisions = (rows: Array<{ revision: number }>) => rows.map((row) => Number(row.revision));
    expect(revisions(after.entries)).toEqual(revisions(run.before.entries).map((r) => r + 1));
    expect(revisions(after.folders)).toEqual(revisions(run.before.folders).map((r) => r + 1));
    expect(revisions(after.versions)).toEqual(revisions(run.before.versions));
    expect(revisions(after.documents)).toEqual(revisions(run.before.documents).map((r) => r + 1));
    const live = run.before.entries.find((row) => row.deleted_at === null)!;
    const stale = await run.client.put(apiPaths.updateEntry(live.id), {
      serviceName: live.service_name,
      username: live.username,
      password: live.password,
      revision: Number(live.revision),
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toBe('This password was changed elsewhere. Reload and try again.');
  });

  it('ends every other session of the user at once, keeps the caller’s, and removes every passkey unlock', async () => {
    const run = await rotationUnderWay();
    const phone = h.client();
    expect((await login(phone, run.account)).statusCode).toBe(200);
    const stranger = await signedInUser(h);
    const at = Date.now();
    const credential = (id: string, unlock: string | null) => ({
      id,
      user_id: run.userId,
      credential_id: `cred-${id}`,
      public_key: 'pk',
      counter: 0,
      transports: null,
      name: id,
      device_type: 'multiDevice',
      backed_up: 1,
      unlock_key: unlock,
      unlock_salt: unlock && 'S'.repeat(43),
      signs_in: 1,
      created_at: at,
      last_used_at: null,
    });
    await h.db
      .insertInto('webauthn_credentials')
      .values([credential(`${run.id}-a`, 'v1.unlock.key'), credential(`${run.id}-b`, null)])
      .execute();
    await uploadAll(run);
    const response = await commit(run);
    expect(response.json().data).toMatchObject({ passkeyUnlocksRemoved: 1, sessionsEnded: 1 });
    expect((await phone.post(apiPaths.verifySession)).statusCode).toBe(401);
    expect((await phone.post(apiPaths.refreshToken)).statusCode).toBe(401);
    expect((await run.client.post(apiPaths.verifySession)).statusCode).toBe(200);
    expect((await stranger.client.post(apiPaths.verifySession)).statusCode).toBe(200);
    const credentials = await h.db
      .selectFrom('webauthn_credentials')
      .select(['unlock_key', 'unlock_salt'])
      .where('user_id', '=', run.userId)
      .execute();
    expect(credentials).toEqual([
      { unlock_key: null, unlock_salt: null },
      { unlock_key: null, unlock_salt: null },
    ]);
  });

  it('rotates an empty vault', async () => {
    const run = await rotationUnderWay(false);
    const response = await commit(run);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data.keyGeneration).toBe(1);
    expect((await userRow(run.userId)).key_generation).toBe(1);
  });

  it('refuses a commit with a missing part with 409 naming what is missing, and changes nothing', async () => {
    const run = await rotationUnderWay();
    const { entries, versions, folders, documents } = run.part;
    const upload = await run.client.put(apiPaths.keyRotationParts(run.id), {
      entries: entries.slice(1),
      versions: versions.slice(1),
      folders,
      documents,
    });
    expect(upload.statusCode).toBe(200);
    const before = await snapshot(run.userId);
    const response = await commit(run);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      message: 'The re-encrypted vault is incomplete: 1 entry, 1 version missing. Nothing was changed.',
    });
    expect(await snapshot(run.userId)).toEqual(before);
    // The rotation stays: the missing part can still be sent, and then it commits.
    await uploadAll(run);
    expect((await commit(run)).statusCode).toBe(200);
  });

  it('refuses a commit after a write since the start with 409, changes nothing and ends the rotation', async () => {
    const run = await rotationUnderWay();
    await uploadAll(run);
    const live = run.before.entries.find((row) => row.deleted_at === null && Number(row.revision) === 1)!;
    expect((await run.client.delete(`${apiPaths.deleteEntry(live.id)}?revision=1`)).statusCode).toBe(200);
    const before = await snapshot(run.userId);
    const response = await commit(run);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual(VAULT_CHANGED);
    expect(await snapshot(run.userId)).toEqual(before);
    expect((await commit(run)).json()).toEqual(NOT_FOUND);
  });

  it('refuses a commit after an account document was written since the start, changing nothing', async () => {
    const run = await rotationUnderWay();
    await uploadAll(run);
    h.clock.advance(1);
    const document = run.before.documents[0]!;
    const put = await run.client.put(apiPaths.accountDocument(document.kind), {
      ciphertext: document.ciphertext,
      revision: Number(document.revision),
    });
    expect(put.statusCode).toBe(200);
    const before = await snapshot(run.userId);
    expect((await commit(run)).json()).toEqual(VAULT_CHANGED);
    expect(await snapshot(run.userId)).toEqual(before);
  });

  it('answers 404 for an expired rotation, another user’s rotation id and an unknown id, changing nothing', async () => {
    const run = await rotationUnderWay();
    await uploadAll(run);
    const bob = await signedInUser(h);
    const body = await commitBody(run.account, run.newKeyBytes);
    const before = await snapshot(run.userId);
    expect((await bob.client.post(apiPaths.keyRotationCommit(run.id), body)).json()).toEqual(NOT_FOUND);
    expect((await run.client.post(apiPaths.keyRotationCommit(crypto.randomUUID()), body)).statusCode).toBe(404);
    await h.db.updateTable('key_rotations').set({ expires_at: h.clock.now() }).where('id', '=', run.id).execute();
    const expired = await run.client.post(apiPaths.keyRotationCommit(run.id), body);
    expect(expired.statusCode).toBe(404);
    expect(await snapshot(run.userId)).toEqual(before);
  });

  it('refuses a key generation other than the stored one + 1, and a stale vault state, changing nothing', async () => {
    const run = await rotationUnderWay();
    await uploadAll(run);
    const before = await snapshot(run.userId);
    const skipped = await run.client.post(apiPaths.keyRotationCommit(run.id), await commitBody(run.account, run.newKeyBytes, 2));
    expect(skipped.statusCode).toBe(409);
    expect(skipped.json().message).toMatch(/^Your password was changed meanwhile/);
    const stale = await commit(run, { vaultState: vaultStateAt(5) });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ code: VAULT_STATE_STALE, state: null });
    expect(await snapshot(run.userId)).toEqual(before);
  });

  it('raises the key epoch by one, a new vault key, and every sign-in and key material answer names it', async () => {
    const run = await rotationUnderWay();
    await uploadAll(run);
    expect(
      Number(
        (await h.db.selectFrom('users').select('key_epoch').where('id', '=', run.userId).executeTakeFirstOrThrow()).key_epoch,
      ),
    ).toBe(0);
    expect((await commit(run)).statusCode).toBe(200);
    const row = await h.db.selectFrom('users').select('key_epoch').where('id', '=', run.userId).executeTakeFirstOrThrow();
    expect(Number(row.key_epoch)).toBe(1);
    expect((await run.client.get(apiPaths.keyMaterial)).json().data.keyEpoch).toBe(1);
    expect((await login(h.client(), run.account)).json().data.keyEpoch).toBe(1);
  });

  it('refuses a key epoch other than the stored one + 1, changing nothing', async () => {
    const run = await rotationUnderWay();
    await uploadAll(run);
    const before = await snapshot(run.userId);
    for (const keyEpoch of [2, 0]) {
      const made = await commitBody(run.account, run.newKeyBytes, undefined, Math.max(keyEpoch, 1));
      const refused = await run.client.post(apiPaths.keyRotationCommit(run.id), { ...made, keyEpoch });
      expect(refused.statusCode).toBe(keyEpoch === 0 ? 400 : 409);
    }
    expect(await snapshot(run.userId)).toEqual(before);
    const row = await h.db.selectFrom('users').select('key_epoch').where('id', '=', run.userId).executeTakeFirstOrThrow();
    expect(Number(row.key_epoch)).toBe(0);
  });

  it('refuses bad input with 400: a missing vault state, a protected key that is no ciphertext', async () => {
    const run = await rotationUnderWay(false);
    const body = await commitBody(run.account, run.newKeyBytes);
    const noState = await run.client.post(apiPaths.keyRotationCommit(run.id), { ...body, vaultState: undefined });
    expect(noState.statusCode).toBe(400);
    expect(noState.json().message).toMatch(/^vaultState /);
    const badKey = await run.client.post(apiPaths.keyRotationCommit(run.id), { ...body, protectedKey: 'plain' });
    expect(badKey.statusCode).toBe(400);
    expect((await userRow(run.userId)).key_generation).toBe(0);
  });
});
