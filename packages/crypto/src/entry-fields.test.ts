import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openEntryFields, sealEntryFields, type EntryTexts } from './entry-fields';
import { FieldDecryptionError } from './errors';
import { decryptField, encryptField, ENTRY_FIELD_NAMES, fieldAad, type EntryFieldName } from './fields';
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
