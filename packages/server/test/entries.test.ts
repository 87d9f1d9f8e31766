import { describe, expect, it } from 'vitest';
import { apiPaths, entrySchema, maxCiphertextLength } from '@lockit/contract';
import { decryptField, importVaultKey, newEntryId } from '@lockit/crypto';
import { signedInUser } from './helpers/accounts';
import { encryptEntry } from './helpers/entries';
import { useTestApp } from './helpers/test-app';

const h = useTestApp();
const NOT_FOUND = { message: 'Password not found.' };
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('POST /api/passwords/add', () => {
  it('stores the ciphertexts and answers 201 with the new entry', async () => {
    const { account, client } = await signedInUser(h);
    const body = await encryptEntry(account, { serviceName: 'Mail', username: 'me@example.test', password: 's3cret', url: 'https://mail.example', notes: 'n' });
    const response = await client.post(apiPaths.addEntry, body);
    expect(response.statusCode).toBe(201);
    const { message, data } = response.json();
    expect(message).toBe('Password added');
    expect(entrySchema.parse(data)).toEqual(data);
    expect(data).toEqual({ ...body, revision: 1, createdAt: expect.stringMatching(ISO), updatedAt: data.createdAt });
    const vaultKey = await importVaultKey(account.vaultKeyBytes);
    expect(await decryptField(vaultKey, data.id, 'password', data.password)).toBe('s3cret');
  });

  it('stores url and notes as null when left out', async () => {
    const { account, client } = await signedInUser(h);
    const response = await client.post(apiPaths.addEntry, await encryptEntry(account, { serviceName: 'a', username: 'b', password: 'c' }));
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
    const body = await encryptEntry(account, { serviceName: 'a', username: 'b', password: 'c', url: 'u', notes: 'n' });
    for (const field of ['serviceName', 'username', 'password', 'url', 'notes'] as const) {
      const response = await client.post(apiPaths.addEntry, { ...body, id: newEntryId(), [field]: 'hunter2' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message: `${field} must be a Lockit ciphertext (v1.<iv>.<data>), never plaintext` });
    }
    expect((await client.get(apiPaths.listEntries)).json().data).toEqual([]);
  });

  it('refuses an oversized field with a clear message', async () => {
    const { account, client } = await signedInUser(h);
    const body = await encryptEntry(account, { serviceName: 'x'.repeat(1_000), username: 'b', password: 'c' });
    const response = await client.post(apiPaths.addEntry, body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: `serviceName is longer than ${maxCiphertextLength(200)} characters` });
  });

  it("accepts the ciphertext of a 10,000-character note (even of 4-byte characters)", async () => {
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
    expect((await client.post(apiPaths.addEntry, { ...body, password: undefined })).json()).toEqual({ message: 'password is required' });
    expect((await client.post(apiPaths.addEntry, { ...body, id: 'entry-1' })).json()).toEqual({ message: 'id must be a UUID' });
  });
});

describe('GET /api/passwords/show/user-passwords', () => {
  it('lists the caller’s entries oldest first, fields as stored', async () => {
    const { account, client } = await signedInUser(h);
    expect((await client.get(apiPaths.listEntries)).json()).toEqual({ message: 'Success', data: [] });
    const added = [];
    for (const name of ['first', 'second', 'third']) {
      added.push((await client.post(apiPaths.addEntry, await encryptEntry(account, { serviceName: name, username: 'u', password: 'p' }))).json().data);
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
    const body = await encryptEntry(user.account, { serviceName: 'svc', username: 'u', password: 'old', url: 'https://x', notes: 'keep me' });
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
    expect(Date.parse(data.updatedAt)).toBeGreaterThan(Date.parse(created.updatedAt));
    expect((await client.get(apiPaths.listEntries)).json().data).toEqual([data]);
  });

  it('keeps url and notes when left out, clears them when null', async () => {
    const { account, client, created } = await withEntry();
    const next = await encryptEntry(account, { serviceName: 's', username: 'u', password: 'p' }, created.id);
    const kept = (await client.put(apiPaths.updateEntry(created.id), next)).json().data;
    expect(kept.url).toBe(created.url);
    expect(kept.notes).toBe(created.notes);
    const cleared = (await client.put(apiPaths.updateEntry(created.id), { ...next, url: null, notes: null })).json().data;
    expect(cleared).toMatchObject({ url: null, notes: null, revision: 3 });
  });

  it('accepts the id in the body as id or _id, and refuses one that differs from the path', async () => {
    const { account, client, created } = await withEntry();
    const next = await encryptEntry(account, { serviceName: 's', username: 'u', password: 'p' }, created.id);
    const { id: _ignored, ...withoutId } = next;
    expect((await client.put(apiPaths.updateEntry(created.id), { ...withoutId, _id: created.id })).statusCode).toBe(200);
    expect((await client.put(apiPaths.updateEntry(created.id), withoutId)).statusCode).toBe(200);
    for (const body of [{ ...withoutId, id: newEntryId() }, { ...withoutId, _id: newEntryId() }]) {
      const response = await client.put(apiPaths.updateEntry(created.id), body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message: 'The id in the body does not match the id in the address.' });
    }
  });

  it('refuses a stale revision with 409 and changes nothing', async () => {
    const { account, client, created } = await withEntry();
    const next = await encryptEntry(account, { serviceName: 's', username: 'u', password: 'p' }, created.id);
    expect((await client.put(apiPaths.updateEntry(created.id), { ...next, revision: 1 })).statusCode).toBe(200);
    const stale = await client.put(apiPaths.updateEntry(created.id), { ...next, password: created.password, revision: 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({ message: 'This password was changed elsewhere. Reload and try again.' });
    expect((await client.get(apiPaths.listEntries)).json().data[0]).toMatchObject({ password: next.password, revision: 2 });
  });

  it('answers 404 for an unknown id', async () => {
    const { account, client } = await withEntry();
    const id = newEntryId();
    const response = await client.put(apiPaths.updateEntry(id), await encryptEntry(account, { serviceName: 's', username: 'u', password: 'p' }, id));
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual(NOT_FOUND);
    const withRevision = await client.put(apiPaths.updateEntry(id), {
      ...(await encryptEntry(account, { serviceName: 's', username: 'u', password: 'p' }, id)),
      revision: 1,
    });
    expect(withRevision.json()).toEqual(NOT_FOUND);
  });

  it('names the problem for a bad path id and for plaintext', async () => {
    const { body, client, created } = await withEntry();
    expect((await client.put(apiPaths.updateEntry('not-a-uuid'), body)).json()).toEqual({ message: 'id must be a UUID' });
    const plaintext = await client.put(apiPaths.updateEntry(created.id), { ...body, password: 'plain' });
    expect(plaintext.json()).toEqual({ message: 'password must be a Lockit ciphertext (v1.<iv>.<data>), never plaintext' });
  });
});

describe('DELETE /api/passwords/delete/{id}', () => {
  it('deletes the entry', async () => {
    const { account, client } = await signedInUser(h);
    const body = await encryptEntry(account, { serviceName: 's', username: 'u', password: 'p' });
    await client.post(apiPaths.addEntry, body);
    const response = await client.delete(apiPaths.deleteEntry(body.id));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Password deleted' });
    expect((await client.get(apiPaths.listEntries)).json().data).toEqual([]);
    expect((await client.delete(apiPaths.deleteEntry(body.id))).json()).toEqual(NOT_FOUND);
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    const { client } = await signedInUser(h);
    const unknown = await client.delete(apiPaths.deleteEntry(newEntryId()));
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual(NOT_FOUND);
    const malformed = await client.delete(apiPaths.deleteEntry('1234'));
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ message: 'id must be a UUID' });
  });
});
