import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ENTRY_PLAINTEXT_LIMITS, apiPaths } from '@lockit/contract';
import { aesGcmEncrypt, encryptField, formatCiphertext, importVaultKey, newEntryId, toBase64Url } from '@lockit/crypto';
import { signedInUser } from './helpers/accounts';
import { encryptEntry, encryptItem } from './helpers/entries';
import { useTestApp } from './helpers/test-app';

const h = useTestApp();
const utf8 = (text: string) => new TextEncoder().encode(text);
const IV = toBase64Url(new Uint8Array(12).fill(5));

/** A field as Lockit sealed it before length hiding: v1, the plaintext unpadded. */
async function v1Field(vaultKeyBytes: Uint8Array, entryId: string, field: string, text: string): Promise<string> {
  const iv = globalThis.crypto.getRandomValues(new Uint8Array(12));
  const key = await importVaultKey(vaultKeyBytes);
  return formatCiphertext(iv, await aesGcmEncrypt(key, iv, utf8(text), utf8(`lockit/v1/entry|${entryId}|${field}`)));
}

describe('the ciphertext allow-list under length hiding', () => {
  it('stores padded v2 fields as sent: the server sees bucket-sized ciphertexts only', async () => {
    const { account, client } = await signedInUser(h);
    const body = await encryptEntry(account, {
      serviceName: 'Mail',
      username: 'me@example.test',
      password: 'a much longer password',
    });
    expect([body.serviceName, body.username, body.password].every((text) => text.startsWith('v2.'))).toBe(true);
    // 4, 15 and 22 bytes of plaintext: one bucket, so three ciphertexts of one length.
    expect(new Set([body.serviceName.length, body.username.length, body.password.length]).size).toBe(1);
    const response = await client.post(apiPaths.addEntry, body);
    expect(response.statusCode).toBe(201);
    expect(response.json().data).toMatchObject(body);
  });

  it('still accepts v1 fields, as a client from before length hiding sends them', async () => {
    const { account, client } = await signedInUser(h);
    const id = newEntryId();
    const seal = (field: string, text: string) => v1Field(account.vaultKeyBytes, id, field, text);
    const body = {
      id,
      serviceName: await seal('serviceName', 'Old'),
      username: await seal('username', 'me'),
      password: await seal('password', 'pw'),
    };
    const response = await client.post(apiPaths.addEntry, body);
    expect(response.statusCode).toBe(201);
    expect(response.json().data).toMatchObject(body);
  });

  it('refuses a v2 text shorter than the smallest bucket plus the tag, and an unknown version, storing nothing', async () => {
    const { account, client } = await signedInUser(h);
    const good = await encryptEntry(account, { serviceName: 'a', username: 'b', password: 'c' });
    for (const password of [`v2.${IV}.${'A'.repeat(63)}`, good.password.replace(/^v2\./, 'v3.')]) {
      const response = await client.post(apiPaths.addEntry, { ...good, id: newEntryId(), password });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message: 'password must be a Lockit ciphertext (v1.<iv>.<data>), never plaintext' });
    }
    expect((await client.get(apiPaths.listEntries)).json().data).toEqual([]);
  });

  it('takes an item whose every field is the longest the client allows, padded, in one request', async () => {
    const { account, client } = await signedInUser(h);
    const longest = (field: keyof typeof ENTRY_PLAINTEXT_LIMITS) => '€'.repeat(ENTRY_PLAINTEXT_LIMITS[field]);
    const body = await encryptItem(account, {
      serviceName: longest('serviceName'),
      username: longest('username'),
      password: longest('password'),
      url: longest('url'),
      notes: longest('notes'),
      overview: { v: 1, padding: longest('overview').slice(0, ENTRY_PLAINTEXT_LIMITS.overview - 20) },
      details: { v: 1, padding: longest('details').slice(0, ENTRY_PLAINTEXT_LIMITS.details - 20) },
    });
    const response = await client.post(apiPaths.addEntry, body);
    expect(response.statusCode).toBe(201);
  });

  it('accepts a padded folder name and a padded account document', async () => {
    const { account, client } = await signedInUser(h);
    const key = await importVaultKey(account.vaultKeyBytes);
    const id = randomUUID();
    const name = await encryptField(key, `folder:${id}`, 'serviceName', 'Work');
    expect(name.startsWith('v2.')).toBe(true);
    expect((await client.post(apiPaths.folders, { id, name })).statusCode).toBe(201);
    const ciphertext = await encryptField(key, 'account-document:generator-settings', 'notes', '{"length":24}');
    const saved = await client.put(apiPaths.accountDocument('generator-settings'), { ciphertext, revision: 0 });
    expect(saved.statusCode).toBe(200);
  });
});
