import { describe, expect, it } from 'vitest';
import { apiPaths, entrySchema, maxCiphertextLength } from '@lockit/contract';
import { decryptField, importVaultKey, newEntryId } from '@lockit/crypto';
import { signedInUser } from './helpers/accounts';
import { encryptEntry, encryptItem } from './helpers/entries';
import { useTestApp } from './helpers/test-app';

const h = useTestApp();
const NOT_FOUND = { message: 'Password not found.' };
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('POST /api/passwords/add', () => {
  it('stores the ciphertexts and answers 201 with the new entry', async () => {
    const { account, client } = await signedInUser(h);
    const body = await encryptEntry(account, {
      serviceName: 'Mail',
      username: 'me@example.test',
      password: 's3cret',
      url: 'https://mail.example',
      notes: 'n',
    });
    const response = await client.post(apiPaths.addEntry, body);
    expect(response.statusCode).toBe(201);
    const { message, data } = response.json();
    expect(message).toBe('Password added');
    expect(entrySchema.parse(data)).toEqual(data);
    expect(data).toEqual({
      ...body,
      overview: null,
      details: null,
      revision: 1,
      createdAt: expect.stringMatching(ISO),
      updatedAt: data.createdAt,
      deletedAt: null,
    });
    const vaultKey = await importVaultKey(account.vaultKeyBytes);
    expect(await decryptField(vaultKey, data.id, 'password', data.password)).toBe('s3cret');
  });

  it('stores the overview and details documents of an item as the ciphertexts sent', async () => {
    const { account, client } = await signedInUser(h);
    const body = await encryptItem(account, {
      serviceName: 'Bank',
      username: 'me',
      password: 'pw',
      url: 'https://bank.example',
      overview: { v: 1, type: 'login', urls: ['https://bank.example', 'https://m.bank.example'], favorite: true },
      details: { v: 1, totp: 'JBSWY3DPEHPK3PXP' },
    });
    const response = await client.post(apiPaths.addEntry, body);
    expect(response.statusCode).toBe(201);
    expect(response.json().data).toMatchObject({ overview: body.overview, details: body.details, notes: null });
    expect((await client.get(apiPaths.listEntries)).json().data).toEqual([response.json().data]);
  });

  it('stores url and notes as null when left out', async () => {
    const { account, client } = await signedInUser(h);
    const response = await client.post(
      apiPaths.addEntry,
      await encryptEntry(account, { serviceName: 'a', username: 'b', password: 'c' }),
    );
    expect(response.json().data).toMatchObject({ url: null, notes: null });
  });

  it('refuses an id that already exists (409)', async () => {
    const { account, client } = await signedInUser(h);
    const body = await encryptEntry(account, { serviceName: 'a', username: 'b', password: 'c' });
    expect((await client.post(apiPaths.addEntry, body)).statusCode).toBe(201);
    const again = await client.post(apiPaths.addEntry, body);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: 'An entry with that id already exists.' });
    const upper = await client.post(apiPaths.addEntry, { ...body, id: body.id.toUpperCase() });
    expect(upper.statusCode).toBe(409);
  });

  it('refuses plaintext in any field with a clear message', async () => {
    const { account, client } = await signedInUser(h);
    const body = await encryptItem(account, {
      serviceName: 'a',
      username: 'b',
      password: 'c',
      url: 'u',
      notes: 'n',
      overview: { v: 1 },
      details: { v: 1 },
    });
    for (const field of ['serviceName', 'username', 'password', 'url', 'notes', 'overview', 'details'] as const) {
      const response = await client.post(apiPaths.addEntry, { ...body, id: newEntryId(), [field]: 'hunter2' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message: `${field} must be a Lockit ciphertext (v1.<iv>.<data>), never plaintext` });
    }
    expect((await client.get(apiPaths.listEntries)).json().data).toEqual([]);
  });

  it('refuses an oversized field with a clear message', async () => {
    const { account, client } = await signedInUser(h);
    // Past the cap once padded: 1,100 bytes take the 1,536-byte bucket.
    const body = await encryptEntry(account, { serviceName: 'x'.repeat(1_100), username: 'b', password: 'c' });
    const response = await client.post(apiPaths.addEntry, body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: `serviceName is longer than ${maxCiphertextLength(200)} characters` });
  });

  it('accepts the ciphertext of a 10,000-character note (even of 4-byte characters)', async () => {
    const { account, client } = await signedInUser(h);
    for (const notes of ['n'.repeat(10_000), '😀'.repeat(5_000)]) {
      const body = await encryptEntry(account, { serviceName: 'a', username: 'b', password: 'c', notes });
      const response = await client.post(apiPaths.addEntry, body);
      expect(response.statusCode).toBe(201);
      const vaultKey = await importVaultKey(account.vaultKeyBytes);
      expect(await decryptField(vaultKey, body.id, 'notes', response.json().data.notes)).toBe(notes);
    }
  });

  it('names a missing field and a bad id', async () => {
    const { account, client } = await signedInUser(h);
    const body = await encryptEntry(account, { serviceName: 'a', username: 'b', password: 'c' });
    expect((await client.post(apiPaths.addEntry, { ...body, password: undefined })).json()).toEqual({
      message: 'password is required',
    });
    expect((await client.post(apiPaths.addEntry, { ...body, id: 'entry-1' })).json()).toEqual({ message: 'id must be a UUID' });
  });
});

describe('GET /api/passwords/show/user-passwords', () => {
  it('lists the caller’s entries oldest first, fields as stored', async () => {
    const { account, client } = await signedInUser(h);
    expect((await client.get(apiPaths.listEntries)).json()).toEqual({ message: 'Success', data: [] });
    const added = [];
    for (const name of ['first', 'second', 'third']) {
      added.push(
        (
          await client.post(apiPaths.addEntry, await encryptEntry(account, { serviceName: name, username: 'u', password: 'p' }))
        ).json().data,
      );
      h.clock.advance(1_000);
    }
    const response = await client.get(apiPaths.listEntries);
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toEqual(added);
  });
});

describe('PUT /api/passwords/update-password/{id}', () => {
  async function withEntry() {
    const user = await signedInUser(h);
    const body = await encryptEntry(user.account, {
      serviceName: 'svc',
      username: 'u',
      password: 'old',
      url: 'https://x',
      notes: 'keep me',
    });
    const created = (await user.client.post(apiPaths.addEntry, body)).json().data;
    return { ...user, body, created };
  }

  it('replaces the ciphertexts, bumps the revision and updatedAt', async () => {
    const { account, client, created } = await withEntry();
    h.clock.advance(5_000);
    const next = await encryptEntry(account, { serviceName: 'svc', username: 'u', password: 'new' }, created.id);
    const response = await client.put(apiPaths.updateEntry(created.id), { ...next, revision: 1 });
    expect(response.statusCode).toBe(200);
    const { message, data } = response.json();
    expect(message).toBe('Password updated');
    expect(data.revision).toBe(2);
    expect(data.password).toBe(next.password);
    expect(data.createdAt).toBe(created.createdAt);
    expect(data.deletedAt).toBeNull();
    expect(Date.parse(data.updatedAt)).toBeGreaterThan(Date.parse(created.updatedAt));
    expect((await client.get(apiPaths.listEntries)).json().data).toEqual([data]);
  });

  it('keeps url, notes, overview and details when left out, clears them when null', async () => {
    const { account, client } = await signedInUser(h);
    const item = await encryptItem(account, {
      serviceName: 's',
      username: 'u',
      password: 'p',
      url: 'https://x',
      notes: 'n',
      overview: { v: 1, type: 'login' },
      details: { v: 1, totp: 'JBSWY3DP' },
    });
    const created = (await client.post(apiPaths.addEntry, item)).json().data;
    const next = await encryptEntry(account, { serviceName: 's2', username: 'u', password: 'p' }, created.id);
    const kept = (await client.put(apiPaths.updateEntry(created.id), { ...next, revision: 1 })).json().data;
    expect(kept).toMatchObject({ url: item.url, notes: item.notes, overview: item.overview, details: item.details, revision: 2 });
    const cleared = (
      await client.put(apiPaths.updateEntry(created.id), {
        ...next,
        url: null,
        notes: null,
        overview: null,
        details: null,
        revision: 2,
      })
    ).json().data;
    expect(cleared).toMatchObject({ url: null, notes: null, overview: null, details: null, revision: 3 });
  });

  it('upgrades an entry of the old format to an item by saving it with its documents', async () => {
    const { account, client, created } = await withEntry();
    const item = await encryptItem(
      account,
      {
        serviceName: 'svc',
        username: 'u',
        password: 'old',
        url: 'https://x',
        notes: 'keep me',
        overview: { v: 1, type: 'login', urls: ['https://x'] },
      },
      created.id,
    );
    const response = await client.put(apiPaths.updateEntry(created.id), { ...item, revision: 1 });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toEqual({ ...created, ...item, revision: 2, updatedAt: response.json().data.updatedAt });
  });

  it('refuses an update without a revision with a readable 400, and changes nothing', async () => {
    const { account, client, created } = await withEntry();
    const next = await encryptEntry(account, { serviceName: 's', username: 'u', password: 'p' }, created.id);
    for (const revision of [undefined, null, '1', 0, 1.5]) {
      const response = await client.put(apiPaths.updateEntry(created.id), { ...next, revision });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(/^revision /);
    }
    expect((await client.put(apiPaths.updateEntry(created.id), next)).json()).toEqual({
      message: 'revision is required: the revision this change is based on',
    });
    expect((await client.get(apiPaths.listEntries)).json().data).toEqual([created]);
  });

  it('accepts the id in the body as id or _id, and refuses one that differs from the path', async () => {
    const { account, client, created } = await withEntry();
    const next = await encryptEntry(account, { serviceName: 's', username: 'u', password: 'p' }, created.id);
    const { id: _ignored, ...withoutId } = next;
    expect((await client.put(apiPaths.updateEntry(created.id), { ...withoutId, _id: created.id, revision: 1 })).statusCode).toBe(
      200,
    );
    expect((await client.put(apiPaths.updateEntry(created.id), { ...withoutId, revision: 2 })).statusCode).toBe(200);
    for (const body of [
      { ...withoutId, id: newEntryId() },
      { ...withoutId, _id: newEntryId() },
    ]) {
      const response = await client.put(apiPaths.updateEntry(created.id), { ...body, revision: 3 });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message: 'The id in the body does not match the id in the address.' });
    }
  });

  it('refuses a stale revision with 409 and the entry as it is now, and changes nothing', async () => {
    const { account, client, created } = await withEntry();
    const next = await encryptEntry(account, { serviceName: 's', username: 'u', password: 'p' }, created.id);
    const saved = (await client.put(apiPaths.updateEntry(created.id), { ...next, revision: 1 })).json().data;
    const stale = await client.put(apiPaths.updateEntry(created.id), { ...next, password: created.password, revision: 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({ message: 'This password was changed elsewhere. Reload and try again.', data: saved });
    expect(entrySchema.parse(stale.json().data)).toEqual(saved);
    expect((await client.get(apiPaths.listEntries)).json().data).toEqual([saved]);
    expect((await client.get(apiPaths.entryHistory(created.id))).json().data).toHaveLength(1);
    const ahead = await client.put(apiPaths.updateEntry(created.id), { ...next, revision: 7 });
    expect(ahead.statusCode).toBe(409);
    expect(ahead.json().data).toEqual(saved);
  });

  it('answers 404 for an unknown id', async () => {
    const { account, client } = await withEntry();
    const id = newEntryId();
    const response = await client.put(apiPaths.updateEntry(id), {
      ...(await encryptEntry(account, { serviceName: 's', username: 'u', password: 'p' }, id)),
      revision: 1,
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual(NOT_FOUND);
  });

  it('names the problem for a bad path id and for plaintext', async () => {
    const { body, client, created } = await withEntry();
    expect((await client.put(apiPaths.updateEntry('not-a-uuid'), { ...body, revision: 1 })).json()).toEqual({
      message: 'id must be a UUID',
    });
    const plaintext = await client.put(apiPaths.updateEntry(created.id), { ...body, password: 'plain', revision: 1 });
    expect(plaintext.json()).toEqual({ message: 'password must be a Lockit ciphertext (v1.<iv>.<data>), never plaintext' });
    for (const field of ['overview', 'details']) {
      const document = await client.put(apiPaths.updateEntry(created.id), { ...body, [field]: '{"type":"login"}', revision: 1 });
      expect(document.statusCode).toBe(400);
      expect(document.json()).toEqual({ message: `${field} must be a Lockit ciphertext (v1.<iv>.<data>), never plaintext` });
    }
    expect((await client.get(apiPaths.listEntries)).json().data).toEqual([created]);
  });
});
