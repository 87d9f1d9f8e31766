import {
  aesGcmEncrypt,
  entryFieldSet,
  formatCiphertext,
  generateVaultKeyBytes,
  importVaultKey,
  newEntryId,
  paddedLength,
  type EntryFieldName,
} from '@lockit/crypto';
import { describe, expect, it } from 'vitest';
import { openEntry } from '@lockit/client-core';
import { emptyDraft, entryPlaintext, openDraft, sealEntry } from '@lockit/client-core';
import { openFolder, sealFolderName } from '@lockit/client-core';
import type { EntryDraft } from '@lockit/client-core';

const newKey = () => importVaultKey(generateVaultKeyBytes());
const utf8 = (text: string) => new TextEncoder().encode(text);
const wireTimes = { revision: 1, createdAt: '2025-02-01T00:00:00.000Z', updatedAt: '2025-02-01T00:00:00.000Z', deletedAt: null };

const folderTimes = { revision: 1, createdAt: wireTimes.createdAt, updatedAt: wireTimes.updatedAt };

const draft = (password: string, notes: string): EntryDraft => ({
  ...emptyDraft('login'),
  serviceName: 'Mail',
  username: 'alice',
  password,
  notes,
  urls: ['https://mail.example'],
});

/** A field as this app sealed it before length hiding: `v1.<iv>.<data>`, the plaintext unpadded. */
async function v1Field(key: CryptoKey, aad: string, text: string): Promise<string> {
  const iv = globalThis.crypto.getRandomValues(new Uint8Array(12));
  return formatCiphertext(iv, await aesGcmEncrypt(key, iv, utf8(text), utf8(aad)));
}

describe('length hiding in saved entries', () => {
  it('seals every field of a saved entry padded (v2; the overview, bound to the others, v3), its length set by the bucket alone', async () => {
    const key = await newKey();
    const id = newEntryId();
    const short = await sealEntry(key, id, draft('pw', 'n'));
    const long = await sealEntry(key, id, draft('a password of 31 bytes exactly!', 'a note of thirty bytes, padded'));
    for (const field of ['serviceName', 'username', 'password', 'url', 'notes'] as const) {
      expect(short[field], field).toMatch(/^v2\./);
    }
    expect(short.overview).toMatch(/^v3\./);
    // 2 and 31 bytes share the 32-byte bucket; so do 1 and 30 bytes of notes.
    expect(paddedLength(2)).toBe(paddedLength(31));
    expect(long.password.length).toBe(short.password.length);
    expect(long.notes!.length).toBe(short.notes!.length);
    const longer = await sealEntry(key, id, draft('a password of 32 bytes exactly!!', 'n'));
    expect(longer.password.length).toBeGreaterThan(short.password.length);
  });

  it('still opens an entry saved before length hiding (v1 texts), list fields and secrets', async () => {
    const key = await newKey();
    const id = newEntryId();
    const plain = entryPlaintext(draft('old secret', 'old note'));
    // Overviews were version 1 then: no copies of the name and user name.
    const { name: _name, username: _username, ...listed } = plain.overview;
    const texts: Partial<Record<EntryFieldName, string>> = {
      serviceName: plain.serviceName,
      username: plain.username,
      password: plain.password,
      url: plain.url!,
      notes: plain.notes!,
      overview: JSON.stringify({ ...listed, v: 1 }),
    };
    const fieldSet = entryFieldSet(texts);
    const sealed: Record<string, string | null> = { details: null };
    for (const name of fieldSet) {
      sealed[name] = await v1Field(key, `lockit/v2/entry|${id}|${name}|${fieldSet.join(',')}`, texts[name]!);
      expect(sealed[name]).toMatch(/^v1\./);
    }
    const opened = await openEntry(key, { id, ...sealed, ...wireTimes });
    if (opened?.status !== 'open') throw new Error(`did not open: ${JSON.stringify(opened)}`);
    expect(opened).toMatchObject({ serviceName: 'Mail', username: 'alice', urls: ['https://mail.example'] });
    expect(await openDraft(key, opened)).toMatchObject({ password: 'old secret', notes: 'old note' });
  });

  it('refuses a saved v2 field relabelled v1: the entry is damaged, not opened', async () => {
    const key = await newKey();
    const id = newEntryId();
    const sealed = await sealEntry(key, id, draft('pw', 'n'));
    const relabelled = { ...sealed, serviceName: sealed.serviceName.replace(/^v2\./, 'v1.'), ...wireTimes };
    expect((await openEntry(key, relabelled))?.status).toBe('damaged');
  });

  it('seals folder names as v2 and still opens a v1 one', async () => {
    const key = await newKey();
    const id = newEntryId();
    const name = await sealFolderName(key, id, 'Work');
    expect(name).toMatch(/^v2\./);
    expect(await openFolder(key, { id, name, ...folderTimes })).toEqual({ id, name: 'Work', revision: 1 });
    const old = await v1Field(key, `lockit/v1/entry|folder:${id}|serviceName`, 'Old work');
    expect(await openFolder(key, { id, name: old, ...folderTimes })).toEqual({ id, name: 'Old work', revision: 1 });
  });
});
