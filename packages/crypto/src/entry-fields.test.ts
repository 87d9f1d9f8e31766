import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openEntryFields, openEntryOverview, sealEntryFields, type EntryTexts } from './entry-fields';
import { FieldDecryptionError } from './errors';
import { decryptField, encryptField, ENTRY_FIELD_NAMES, entryFieldSet, fieldAad, type EntryFieldName } from './fields';
import { newEntryId } from './random';
import { generateVaultKeyBytes, importVaultKey } from './vault-key';

const vaultKey = await importVaultKey(generateVaultKeyBytes());
const ALL = ENTRY_FIELD_NAMES;

/** Opens every field the stored entry names; resolves to the texts or rejects if any fails. */
const openAll = (id: string, stored: EntryTexts) => openEntryFields(vaultKey, id, stored, ALL);

const plainEntry = fc.record({
  serviceName: fc.string({ minLength: 1, maxLength: 20 }),
  username: fc.string({ maxLength: 20 }),
  password: fc.string({ maxLength: 20 }),
  url: fc.option(fc.webUrl(), { nil: null }),
  notes: fc.option(fc.string({ maxLength: 40 }), { nil: null }),
  overview: fc.constant('{"v":1}'),
  details: fc.option(fc.constant('{"v":1,"totp":"JBSWY3DPEHPK3PXP"}'), { nil: null }),
});

/** Every way a server can rearrange the fields of one stored entry without knowing the key. */
type Mutation =
  | { kind: 'remove'; field: EntryFieldName }
  | { kind: 'add'; from: EntryFieldName; to: EntryFieldName }
  | { kind: 'swap'; a: EntryFieldName; b: EntryFieldName }
  | { kind: 'from-other-entry'; field: EntryFieldName };

function mutations(stored: EntryTexts): Mutation[] {
  const present = ALL.filter((name) => typeof stored[name] === 'string');
  const absent = ALL.filter((name) => typeof stored[name] !== 'string');
  return [
    ...present.map((field): Mutation => ({ kind: 'remove', field })),
    ...present.flatMap((from) => absent.map((to): Mutation => ({ kind: 'add', from, to }))),
    ...present.flatMap((a) => present.filter((b) => b > a).map((b): Mutation => ({ kind: 'swap', a, b }))),
    ...present.map((field): Mutation => ({ kind: 'from-other-entry', field })),
  ];
}

function apply(stored: EntryTexts, mutation: Mutation, other: EntryTexts): EntryTexts {
  const next = { ...stored };
  if (mutation.kind === 'remove') next[mutation.field] = null;
  if (mutation.kind === 'add') next[mutation.to] = stored[mutation.from] ?? null;
  if (mutation.kind === 'swap') [next[mutation.a], next[mutation.b]] = [stored[mutation.b] ?? null, stored[mutation.a] ?? null];
  if (mutation.kind === 'from-other-entry') next[mutation.field] = other[mutation.field] ?? null;
  return next;
}

describe('entries of the item format (field set in the associated data)', () => {
  it('open as sealed, absent fields as null', async () => {
    const id = newEntryId();
    const plain = {
      serviceName: 'Bank',
      username: 'ada',
      password: 'p',
      url: null,
      notes: 'n',
      overview: '{"v":1}',
      details: null,
    };
    expect(await openAll(id, await sealEntryFields(vaultKey, id, plain))).toEqual(plain);
  });

  it('detects any removal, addition, duplication, swap or move of a field (property)', async () => {
    await fc.assert(
      fc.asyncProperty(plainEntry, async (plain) => {
        const id = newEntryId();
        const otherId = newEntryId();
        const stored = await sealEntryFields(vaultKey, id, plain);
        // The same content under another id: a field moved from it is a same-shaped text.
        const other = await sealEntryFields(vaultKey, otherId, {
          ...plain,
          url: plain.url ?? 'https://x.test',
          notes: plain.notes ?? 'x',
          details: plain.details ?? '{"v":1}',
        });
        for (const mutation of mutations(stored)) {
          await expect(openAll(id, apply(stored, mutation, other)), JSON.stringify(mutation)).rejects.toBeInstanceOf(
            FieldDecryptionError,
          );
        }
      }),
      { numRuns: 25 },
    );
  });

  it('fails the fields the list opens when the server drops one it does not open (details)', async () => {
    const id = newEntryId();
    const stored = await sealEntryFields(vaultKey, id, {
      serviceName: 'S',
      username: 'u',
      password: 'p',
      overview: '{"v":1}',
      details: '{"v":1}',
    });
    await expect(openEntryFields(vaultKey, id, { ...stored, details: null }, ['serviceName', 'overview'])).rejects.toBeInstanceOf(
      FieldDecryptionError,
    );
  });

  it('never opens a v2 field as v1: stripping the overview does not pass an entry off as an old one', async () => {
    const id = newEntryId();
    const stored = await sealEntryFields(vaultKey, id, {
      serviceName: 'S',
      username: 'u',
      password: 'p',
      url: 'https://a.test',
      overview: '{"v":1}',
    });
    await expect(openAll(id, { ...stored, overview: null })).rejects.toBeInstanceOf(FieldDecryptionError);
  });

  it('still opens entries saved before items (v1), and a v1 text never opens as v2', async () => {
    const id = newEntryId();
    const legacy = {
      serviceName: await encryptField(vaultKey, id, 'serviceName', 'Old'),
      username: await encryptField(vaultKey, id, 'username', 'u'),
      password: await encryptField(vaultKey, id, 'password', 'p'),
    };
    expect(await openEntryFields(vaultKey, id, legacy, ['serviceName', 'username', 'password', 'url'])).toEqual({
      serviceName: 'Old',
      username: 'u',
      password: 'p',
      url: null,
    });
    await expect(
      decryptField(vaultKey, id, 'serviceName', legacy.serviceName, ['serviceName', 'username', 'password', 'overview']),
    ).rejects.toBeInstanceOf(FieldDecryptionError);
  });

  it('refuses malformed field sets and v1 documents', () => {
    expect(() => fieldAad('id', 'overview')).toThrow(TypeError);
    expect(() => fieldAad('id', 'url', ['serviceName', 'username', 'password', 'overview'])).toThrow(/not in the field set/);
    expect(() => fieldAad('id', 'serviceName', ['username', 'serviceName', 'password', 'overview'])).toThrow(/canonical order/);
    expect(() => fieldAad('id', 'serviceName', ['serviceName', 'serviceName', 'username', 'password', 'overview'])).toThrow(
      /once each/,
    );
    expect(() => fieldAad('id', 'serviceName', ['serviceName', 'username', 'password'])).toThrow(/required fields/);
  });
});

describe('the bound overview (a v3 text: its associated data holds the other fields)', () => {
  const plain = {
    serviceName: 'Bank',
    username: 'ada',
    password: 'p',
    url: 'https://bank.test',
    notes: 'n',
    overview: '{"v":2}',
    details: '{"v":1}',
  };

  it('is sealed last, as v3, and opens alone: one decryption proves the whole entry', async () => {
    const id = newEntryId();
    const stored = await sealEntryFields(vaultKey, id, plain);
    expect(stored.overview).toMatch(/^v3\./);
    for (const name of ['serviceName', 'username', 'password', 'url', 'notes', 'details'] as const)
      expect(stored[name]).toMatch(/^v2\./);
    expect(await openEntryOverview(vaultKey, id, stored)).toEqual({
      overview: '{"v":2}',
      bound: true,
      fieldSet: ENTRY_FIELD_NAMES,
    });
  });

  it('detects any removal, addition, duplication, swap or move of any field, by opening the overview alone (property)', async () => {
    await fc.assert(
      fc.asyncProperty(plainEntry, async (entry) => {
        const id = newEntryId();
        const stored = await sealEntryFields(vaultKey, id, entry);
        const other = await sealEntryFields(vaultKey, newEntryId(), {
          ...entry,
          url: entry.url ?? 'https://x.test',
          notes: entry.notes ?? 'x',
          details: entry.details ?? '{"v":1}',
        });
        for (const mutation of mutations(stored)) {
          const served = apply(stored, mutation, other);
          // A removed overview leaves an entry of the format before items: not an overview to open.
          if (typeof served.overview !== 'string') continue;
          await expect(openEntryOverview(vaultKey, id, served), JSON.stringify(mutation)).rejects.toBeInstanceOf(
            FieldDecryptionError,
          );
        }
      }),
      { numRuns: 25 },
    );
  });

  it('fails when any other field is one of an older revision of the same entry', async () => {
    const id = newEntryId();
    const older = await sealEntryFields(vaultKey, id, plain);
    const newer = await sealEntryFields(vaultKey, id, { ...plain, password: 'p2', notes: 'n2' });
    for (const name of ['serviceName', 'username', 'password', 'url', 'notes', 'details'] as const) {
      await expect(openEntryOverview(vaultKey, id, { ...newer, [name]: older[name] }), name).rejects.toMatchObject({
        reason: 'authentication',
      });
    }
    // The older overview beside the newer fields fails too.
    await expect(openEntryOverview(vaultKey, id, { ...newer, overview: older.overview })).rejects.toBeInstanceOf(
      FieldDecryptionError,
    );
  });

  it('never opens relabelled: a v3 overview as v2, a v2 one as v3, nor a v3 text in another field', async () => {
    const id = newEntryId();
    const stored = await sealEntryFields(vaultKey, id, plain);
    const asV2 = stored.overview!.replace(/^v3\./, 'v2.');
    await expect(openEntryOverview(vaultKey, id, { ...stored, overview: asV2 })).rejects.toMatchObject({
      reason: 'authentication',
    });
    const fieldSet = entryFieldSet(plain);
    const unbound = await encryptField(vaultKey, id, 'overview', '{"v":1}', fieldSet);
    await expect(openEntryOverview(vaultKey, id, { ...stored, overview: unbound.replace(/^v2\./, 'v3.') })).rejects.toMatchObject(
      { reason: 'authentication' },
    );
    await expect(decryptField(vaultKey, id, 'overview', stored.overview!, fieldSet)).rejects.toMatchObject({ reason: 'version' });
    await expect(
      decryptField(vaultKey, id, 'password', stored.password!.replace(/^v2\./, 'v3.'), fieldSet),
    ).rejects.toMatchObject({ reason: 'version' });
  });

  it('still opens an overview sealed before binding (v2), and says it is not bound', async () => {
    const id = newEntryId();
    const fieldSet = entryFieldSet(plain);
    const stored: EntryTexts = {};
    for (const name of ENTRY_FIELD_NAMES) stored[name] = await encryptField(vaultKey, id, name, plain[name], fieldSet);
    expect(await openEntryOverview(vaultKey, id, stored)).toMatchObject({ overview: '{"v":2}', bound: false });
    expect(await openAll(id, stored)).toEqual(plain);
  });
});
