import { describe, expect, it } from 'vitest';
import {
  encryptField,
  ENTRY_FIELD_NAMES,
  generateVaultKeyBytes,
  importVaultKey,
  newEntryId,
  sealEntryFields,
  toBase64Url,
} from '@lockit/crypto';
import {
  addEntryRequestSchema,
  ENTRY_FIELDS,
  ENTRY_PLAINTEXT_LIMITS,
  entrySchema,
  maxCiphertextLength,
  updateEntryRequestSchema,
  type EntryField,
} from './entries';

const IV = toBase64Url(new Uint8Array(12).fill(7));

/** A text in the v1 format, `length` characters long in all (at least 42: IV plus tag). */
function ciphertextOfLength(length: number): string {
  const prefix = `v1.${IV}.`;
  return prefix + 'A'.repeat(length - prefix.length);
}

const CIPHERTEXT = ciphertextOfLength(60);
const ID = '0f8fad5b-d9cb-469f-a165-70867728950e';
const REQUIRED: EntryField[] = ['serviceName', 'username', 'password'];

function entryBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { id: ID, serviceName: CIPHERTEXT, username: CIPHERTEXT, password: CIPHERTEXT, ...overrides };
}

function firstIssue(result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  return result.error?.issues[0];
}

describe('addEntryRequestSchema', () => {
  it('accepts an entry whose every field is a v1 ciphertext, url and notes optional or null', () => {
    expect(addEntryRequestSchema.parse(entryBody())).toEqual(entryBody());
    const full = entryBody({ url: CIPHERTEXT, notes: null });
    expect(addEntryRequestSchema.parse(full)).toEqual(full);
  });

  it('refuses plaintext in every field, naming the field', () => {
    for (const field of ENTRY_FIELDS) {
      const result = addEntryRequestSchema.safeParse(entryBody({ [field]: 'hunter2' }));
      expect(firstIssue(result), field).toMatchObject({
        path: [field],
        message: 'must be a Lockit ciphertext (v1.<iv>.<data>), never plaintext',
      });
    }
  });

  it('accepts padded v2 fields as the web app seals them', async () => {
    const vaultKey = await importVaultKey(generateVaultKeyBytes());
    const id = newEntryId();
    const body: Record<string, unknown> = { id };
    for (const field of ENTRY_FIELDS) body[field] = await encryptField(vaultKey, id, field, 'x', ENTRY_FIELD_NAMES);
    expect(
      Object.values(body)
        .slice(1)
        .every((text) => String(text).startsWith('v2.')),
    ).toBe(true);
    expect(addEntryRequestSchema.safeParse(body).success).toBe(true);
  });

  it('accepts a bound (v3) text in the overview only, as the web app seals it', async () => {
    const vaultKey = await importVaultKey(generateVaultKeyBytes());
    const id = newEntryId();
    const sealed = await sealEntryFields(vaultKey, id, { serviceName: 'S', username: 'u', password: 'p', overview: '{}' });
    expect(sealed.overview).toMatch(/^v3\./);
    expect(addEntryRequestSchema.safeParse({ id, ...sealed, url: undefined, notes: undefined, details: undefined }).success).toBe(
      true,
    );
    for (const field of ['serviceName', 'username', 'password'] as const) {
      const result = addEntryRequestSchema.safeParse({
        id,
        serviceName: sealed.serviceName,
        username: sealed.username,
        password: sealed.password,
        overview: sealed.overview,
        [field]: sealed.overview,
      });
      expect(firstIssue(result)?.path, field).toEqual([field]);
    }
  });

  it('refuses texts that only look like ciphertexts: another version, a short IV, a bare tag prefix, v2 data below the smallest bucket', () => {
    const lookalikes = [
      CIPHERTEXT.replace(/^v1/, 'v3'),
      `v2.${IV}.${'A'.repeat(63)}`,
      `v1.${IV.slice(1)}.${'A'.repeat(30)}`,
      `v1.${IV}.${'A'.repeat(21)}`,
      `v1.${IV}.${'A'.repeat(22)}=`,
      ` ${CIPHERTEXT}`,
    ];
    for (const text of lookalikes) {
      expect(addEntryRequestSchema.safeParse(entryBody({ password: text })).success, text).toBe(false);
    }
  });

  it('requires serviceName, username and password, each by name', () => {
    for (const field of REQUIRED) {
      const body = entryBody();
      delete body[field];
      expect(firstIssue(addEntryRequestSchema.safeParse(body))?.path).toEqual([field]);
    }
  });

  it('requires an id made by the client, and it must be a UUID', () => {
    const withoutId = entryBody();
    delete withoutId.id;
    expect(firstIssue(addEntryRequestSchema.safeParse(withoutId))?.path).toEqual(['id']);
    expect(firstIssue(addEntryRequestSchema.safeParse(entryBody({ id: 'entry-1' })))).toMatchObject({
      path: ['id'],
      message: 'must be a UUID',
    });
  });

  it('accepts each field up to its cap and refuses one character more, saying the cap', () => {
    for (const field of ENTRY_FIELDS) {
      const max = maxCiphertextLength(ENTRY_PLAINTEXT_LIMITS[field]);
      expect(addEntryRequestSchema.safeParse(entryBody({ [field]: ciphertextOfLength(max) })).success, field).toBe(true);
      expect(firstIssue(addEntryRequestSchema.safeParse(entryBody({ [field]: ciphertextOfLength(max + 1) })))).toEqual(
        expect.objectContaining({ path: [field], message: `is longer than ${max} characters` }),
      );
    }
  });

  it('takes the longest plaintext the client allows, even in 4-byte characters', async () => {
    const vaultKey = await importVaultKey(generateVaultKeyBytes());
    const id = newEntryId();
    const body: Record<string, unknown> = { id };
    for (const field of ENTRY_FIELDS) {
      body[field] = await encryptField(vaultKey, id, field, '😀'.repeat(ENTRY_PLAINTEXT_LIMITS[field]), ENTRY_FIELD_NAMES);
    }
    expect(addEntryRequestSchema.safeParse(body).success).toBe(true);
  });

  it('drops fields it does not know, so they can never be stored', () => {
    const parsed = addEntryRequestSchema.parse(entryBody({ userId: 'someone-else', revision: 7, createdAt: 'x' }));
    expect(Object.keys(parsed).sort()).toEqual(['id', 'password', 'serviceName', 'username']);
  });
});

describe('updateEntryRequestSchema', () => {
  const update = (overrides: Record<string, unknown> = {}) => {
    const body: Record<string, unknown> = { ...entryBody(), revision: 1, ...overrides };
    if (!('id' in overrides)) delete body.id;
    return body;
  };

  it('accepts the entry under `id`, under `_id` (as some clients send it), or with neither', () => {
    expect(updateEntryRequestSchema.parse(update({ id: ID }))).toMatchObject({ id: ID });
    expect(updateEntryRequestSchema.parse(update({ _id: ID }))).toMatchObject({ _id: ID });
    expect(updateEntryRequestSchema.parse(update())).not.toHaveProperty('id');
  });

  it('refuses an `_id` that is not a UUID', () => {
    expect(firstIssue(updateEntryRequestSchema.safeParse(update({ _id: '42' })))?.path).toEqual(['_id']);
  });

  it('refuses plaintext just as adding does', () => {
    expect(firstIssue(updateEntryRequestSchema.safeParse(update({ username: 'alice@example.com' })))?.path).toEqual(['username']);
  });

  it('takes a revision only as a whole number from 1', () => {
    expect(updateEntryRequestSchema.parse(update({ revision: 3 }))).toMatchObject({ revision: 3 });
    for (const revision of [0, -1, 1.5, '3']) {
      expect(firstIssue(updateEntryRequestSchema.safeParse(update({ revision })))?.path, String(revision)).toEqual(['revision']);
    }
  });
});

describe('entrySchema', () => {
  it('describes what the list sends: ciphertexts as stored, null for absent url and notes', () => {
    const wire = {
      ...entryBody(),
      url: null,
      notes: null,
      revision: 1,
      createdAt: '2025-01-01T00:00:00.000Z',
      updatedAt: '2025-01-01T00:00:00.000Z',
    };
    expect(entrySchema.parse(wire)).toEqual({ ...wire, overview: null, details: null, deletedAt: null });
    expect(entrySchema.safeParse({ ...wire, url: undefined }).success).toBe(false);
    const item = { ...wire, overview: CIPHERTEXT, details: null, deletedAt: '2025-01-02T00:00:00.000Z' };
    expect(entrySchema.parse(item)).toEqual(item);
  });
});
