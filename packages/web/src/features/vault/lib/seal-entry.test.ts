import type { EntryVersionWire } from '@lockit/contract';
import {
  CIPHERTEXT_PATTERN,
  OVERVIEW_CIPHERTEXT_PATTERN,
  FieldDecryptionError,
  generateVaultKeyBytes,
  importVaultKey,
  newEntryId,
  openEntryFields,
} from '@lockit/crypto';
import { describe, expect, it } from 'vitest';
import { openSealed, sealedEntry } from '@/testing/vault-fixtures';
import { openEntry } from '@lockit/client-core';
import {
  emptyDraft,
  EntryDraftError,
  openDraft,
  openSecrets,
  openVersionDraft,
  sealEntry,
  toAddRequest,
  toUpdateRequest,
  withType,
  type SealedEntry,
} from '@lockit/client-core';
import type { EntryDraft, OpenEntry } from '@lockit/client-core';

const newKey = () => importVaultKey(generateVaultKeyBytes());

const login: EntryDraft = {
  ...emptyDraft('login'),
  serviceName: 'Mail',
  username: 'alice',
  password: 'secret',
  urls: ['  https://mail.example  ', '', 'https://webmail.example'],
  notes: 'note',
  totp: ' JBSWY3DPEHPK3PXP ',
  fields: [
    { id: 'a1', label: 'Recovery code', kind: 'hidden', value: 'r-123' },
    { id: 'a2', label: 'Region', kind: 'text', value: 'EU' },
    { id: 'a3', label: 'Admin', kind: 'boolean', value: 'true' },
    { id: 'a4', label: '  ', kind: 'text', value: '' },
  ],
  tags: [' work', 'Work', 'mail ', ''],
  folderId: newEntryId(),
  favorite: true,
};

const card: EntryDraft = {
  ...emptyDraft('card'),
  serviceName: 'Visa',
  card: { holder: 'Alice L', brand: 'Visa', number: '4242 4242 4242 4242', code: '123', expMonth: '7', expYear: '2031' },
};

const identity: EntryDraft = {
  ...emptyDraft('identity'),
  serviceName: 'Me',
  identity: {
    ...emptyDraft('identity').identity!,
    firstName: 'Alice',
    lastName: 'Liddell',
    email: 'a@example.com',
    passport: 'P123',
  },
};

const note: EntryDraft = { ...emptyDraft('note'), serviceName: 'Alarm code', notes: '1234#', tags: ['home'] };

async function roundTrip(key: CryptoKey, draft: EntryDraft) {
  const id = newEntryId();
  const sealed = await sealEntry(key, id, draft);
  const opened = await openEntry(key, { ...sealed, revision: 1, createdAt: 'c', updatedAt: 'u', deletedAt: null });
  if (opened?.status !== 'open') throw new Error('did not open');
  return { id, sealed, entry: opened, draft: await openDraft(key, opened), plain: await openSealed(key, id, sealed) };
}

describe('sealEntry', () => {
  it('encrypts every field bound to the entry id, the field and the field set', async () => {
    const key = await newKey();
    const id = newEntryId();
    const sealed = await sealEntry(key, id, login);
    expect(sealed.id).toBe(id);
    for (const field of ['serviceName', 'username', 'password', 'url', 'notes', 'details'] as const) {
      expect(sealed[field]).toMatch(CIPHERTEXT_PATTERN);
    }
    // The overview is sealed last, bound to the other six ciphertexts.
    expect(sealed.overview).toMatch(/^v3\./);
    expect(sealed.overview).toMatch(OVERVIEW_CIPHERTEXT_PATTERN);
    await expect(openEntryFields(key, newEntryId(), sealed, ['password'])).rejects.toBeInstanceOf(FieldDecryptionError);
    await expect(openEntryFields(key, id, { ...sealed, username: sealed.password }, ['username'])).rejects.toBeInstanceOf(
      FieldDecryptionError,
    );
    await expect(openEntryFields(key, id, { ...sealed, notes: null }, ['password'])).rejects.toBeInstanceOf(FieldDecryptionError);
    expect(JSON.stringify(sealed)).not.toMatch(/alice|secret|JBSWY3DP|Recovery|Region|mail\.example/);
  });

  it('uses a fresh IV each time', async () => {
    const key = await newKey();
    const id = newEntryId();
    const [a, b] = await Promise.all([sealEntry(key, id, login), sealEntry(key, id, login)]);
    expect(a.password).not.toBe(b.password);
    expect(a.overview).not.toBe(b.overview);
  });

  it('a login: url is the first address; the overview names the fields, hidden values and the seed go to details only', async () => {
    const key = await newKey();
    const { plain } = await roundTrip(key, login);
    expect(plain.url).toBe('https://mail.example');
    expect(plain.overview).toEqual({
      v: 2,
      name: 'Mail',
      username: 'alice',
      type: 'login',
      urls: ['https://mail.example', 'https://webmail.example'],
      tags: ['work', 'mail'],
      folderId: login.folderId,
      favorite: true,
      fields: [
        { id: 'a1', label: 'Recovery code', kind: 'hidden' },
        { id: 'a2', label: 'Region', kind: 'text', value: 'EU' },
        { id: 'a3', label: 'Admin', kind: 'boolean', value: 'true' },
      ],
      hasTotp: true,
      card: null,
      identity: null,
      // A new item lists its files from the start.
      files: [],
    });
    expect(plain.details).toEqual({ v: 1, totp: 'JBSWY3DPEHPK3PXP', hidden: { a1: 'r-123' }, card: null, identity: null });
  });

  it('a card: the last four digits in the overview, number and code in details only', async () => {
    const key = await newKey();
    const { plain } = await roundTrip(key, card);
    expect(plain.overview?.card).toEqual({ holder: 'Alice L', brand: 'Visa', last4: '4242', expMonth: '7', expYear: '2031' });
    expect(plain.details?.card).toEqual({ number: '4242 4242 4242 4242', code: '123' });
    expect(JSON.stringify(plain.overview)).not.toMatch(/4242 4242|123/);
    expect(plain).toMatchObject({ url: null, username: '', password: '', notes: null });
  });

  it('an identity: names in the overview, document numbers in details only', async () => {
    const key = await newKey();
    const { plain } = await roundTrip(key, identity);
    expect(plain.overview?.identity).toMatchObject({ firstName: 'Alice', lastName: 'Liddell', email: 'a@example.com' });
    expect(plain.overview?.identity).not.toHaveProperty('passport');
    expect(plain.details?.identity).toEqual({ ssn: '', passport: 'P123', license: '' });
  });

  it('a note with nothing secret but its text: no details field, notes null only when empty', async () => {
    const key = await newKey();
    const { sealed, plain } = await roundTrip(key, note);
    expect(sealed.details).toBeNull();
    expect(plain.notes).toBe('1234#');
    const empty = await sealEntry(key, newEntryId(), { ...note, notes: '' });
    expect(empty.notes).toBeNull();
  });

  it('saves only what the type shows: a login turned card keeps no password or address', async () => {
    const key = await newKey();
    const { plain } = await roundTrip(key, { ...withType(login, 'card'), card: card.card });
    expect(plain).toMatchObject({ username: '', password: '', url: null });
    expect(plain.overview).toMatchObject({ type: 'card', urls: [], hasTotp: false });
    expect(plain.details).toMatchObject({ totp: null, card: { number: '4242 4242 4242 4242' } });
  });

  it('refuses a name of only spaces and a draft past the caps, before encrypting anything', async () => {
    const key = await newKey();
    await expect(sealEntry(key, newEntryId(), { ...login, serviceName: '   ' })).rejects.toThrow(
      new EntryDraftError('Enter a name for this entry.'),
    );
    await expect(sealEntry(key, newEntryId(), { ...login, tags: Array.from({ length: 31 }, (_, i) => `t${i}`) })).rejects.toThrow(
      'An entry can have at most 30 tags.',
    );
    await expect(sealEntry(key, newEntryId(), { ...card, card: { ...card.card!, expMonth: '13' } })).rejects.toThrow(
      'The expiry month must be a number from 1 to 12.',
    );
  });
});

describe('requests', () => {
  it('an add leaves absent optional fields out; an update names them as null, so the server clears them', async () => {
    const key = await newKey();
    const sealed: SealedEntry = await sealEntry(key, newEntryId(), { ...note, notes: '' });
    expect(Object.keys(toAddRequest(sealed)).sort()).toEqual(['id', 'overview', 'password', 'serviceName', 'username']);
    expect(toUpdateRequest(sealed, 3)).toMatchObject({ url: null, notes: null, details: null, revision: 3 });
  });
});

describe('opening on demand', () => {
  it('openDraft gives back exactly what was saved, for each type', async () => {
    const key = await newKey();
    for (const draft of [login, card, identity, note]) {
      const { draft: reopened } = await roundTrip(key, draft);
      expect(reopened.type).toBe(draft.type);
      expect(reopened.serviceName).toBe(draft.serviceName);
      if (draft === login) {
        expect(reopened).toMatchObject({
          password: 'secret',
          urls: ['https://mail.example', 'https://webmail.example'],
          totp: 'JBSWY3DPEHPK3PXP',
          tags: ['work', 'mail'],
          fields: [
            { id: 'a1', label: 'Recovery code', kind: 'hidden', value: 'r-123' },
            { id: 'a2', label: 'Region', kind: 'text', value: 'EU' },
            { id: 'a3', label: 'Admin', kind: 'boolean', value: 'true' },
          ],
        });
      }
      if (draft === card) expect(reopened.card).toEqual({ ...card.card, holder: 'Alice L' });
      if (draft === identity) expect(reopened.identity).toEqual(identity.identity);
      if (draft === note) expect(reopened).toMatchObject({ notes: '1234#', tags: ['home'] });
    }
  });

  it('openSecrets refuses a details document swapped in from another entry', async () => {
    const key = await newKey();
    const { entry } = await roundTrip(key, login);
    const other = await sealEntry(key, newEntryId(), login);
    const swapped: OpenEntry = { ...entry, sealed: { ...entry.sealed, details: other.details } };
    await expect(openSecrets(key, swapped)).rejects.toThrow();
    expect(await openSecrets(key, entry)).toMatchObject({
      password: 'secret',
      totp: 'JBSWY3DPEHPK3PXP',
      hidden: { a1: 'r-123' },
    });
  });

  it('opens a legacy entry as a login draft', async () => {
    const key = await newKey();
    const wire = await sealedEntry(
      key,
      { serviceName: 'Old', username: 'u', password: 'pw', url: 'https://old.example', notes: 'n' },
      { format: 'legacy' },
    );
    const entry = await openEntry(key, wire);
    if (entry?.status !== 'open') throw new Error('did not open');
    // A legacy entry never listed its files: its draft has no list.
    const { files: _none, ...unlisted } = emptyDraft('login');
    expect(await openDraft(key, entry)).toEqual({
      ...unlisted,
      serviceName: 'Old',
      username: 'u',
      password: 'pw',
      urls: ['https://old.example'],
      notes: 'n',
    });
  });

  it('openVersionDraft opens a version of either format, and refuses a tampered one', async () => {
    const key = await newKey();
    const item = await sealedEntry(key, { serviceName: 'New', username: 'u', password: 'p2', tags: ['x'] });
    const legacy = await sealedEntry(
      key,
      { serviceName: 'Old', username: 'u', password: 'p1' },
      { id: item.id, format: 'legacy' },
    );
    const version = (wire: typeof item): EntryVersionWire => ({ ...wire, savedAt: wire.updatedAt, replacedAt: 'later' });
    expect(await openVersionDraft(key, item.id, version(item))).toMatchObject({
      serviceName: 'New',
      password: 'p2',
      tags: ['x'],
    });
    expect(await openVersionDraft(key, item.id, version(legacy))).toMatchObject({
      serviceName: 'Old',
      password: 'p1',
      type: 'login',
    });
    await expect(openVersionDraft(key, item.id, { ...version(item), notes: legacy.password })).rejects.toThrow();
    await expect(openVersionDraft(key, newEntryId(), version(item))).rejects.toThrow();
  });
});
