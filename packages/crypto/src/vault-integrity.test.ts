import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromBase64Url, toBase64Url } from './encoding';
import { hkdfSha256 } from './hkdf';
import { ascii, fromHex, toHex } from './test-support/hex';
import {
  addElement,
  deriveVaultIntegrityKey,
  deriveVaultIntegrityKeyFromHkdf,
  EMPTY_SUM,
  entryElement,
  folderElement,
  sealVaultState,
  subtractElement,
  sumFromState,
  sumOfElements,
  trashedElementOf,
  trashedEntryElement,
  VAULT_INTEGRITY_INFO,
  verifyVaultState,
  type SealedVaultState,
  type VaultEntryMember,
  type VaultFolderMember,
} from './vault-integrity';

const subtle = globalThis.crypto.subtle;
const VAULT_KEY = Uint8Array.from({ length: 32 }, (_, i) => i);
const OTHER_VAULT_KEY = Uint8Array.from({ length: 32 }, (_, i) => 255 - i);

const ENTRY: VaultEntryMember = {
  id: '3f2504e0-4f89-41d3-9a0c-0305e82c3301',
  revision: 1,
  serviceName: 's',
  username: 'u',
  password: 'p',
  url: null,
  notes: 'n',
  overview: null,
  details: 'd',
};
const FOLDER: VaultFolderMember = { id: '3f2504e0-4f89-41d3-9a0c-0305e82c3302', revision: 2, name: 'name' };

const key = () => deriveVaultIntegrityKey(VAULT_KEY);
const hex32 = (byte: number) => new Uint8Array(32).fill(byte);
const numberBytes = (n: bigint) => fromHex(n.toString(16).padStart(64, '0'));

// Vectors computed once with Node's own HKDF and HMAC (node:crypto hkdfSync / createHmac),
// an implementation independent of WebCrypto's deriveKey path used here.
describe('the vault integrity key', () => {
  it('is HKDF-SHA256(vault key, 32 zero bytes, VAULT_INTEGRITY_INFO) as a 32-byte HMAC key: same tags as the manual derivation', async () => {
    const manualBytes = await hkdfSha256(VAULT_KEY, new Uint8Array(32), ascii(VAULT_INTEGRITY_INFO), 32);
    expect(toHex(manualBytes)).toBe('d31e73975e4db432ef5b3e64533c7eed0f5a7fca582018421e49b638d99545b6');
    const manual = await subtle.importKey('raw', Uint8Array.from(manualBytes), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
    ]);
    const message = ascii('any message');
    const derived = await key();
    expect(toHex(new Uint8Array(await subtle.sign('HMAC', derived, message)))).toBe(
      toHex(new Uint8Array(await subtle.sign('HMAC', manual, message))),
    );
  });

  it('gives fixed known-answer elements and tag', async () => {
    const k = await key();
    expect(toHex(await entryElement(k, ENTRY))).toBe('647ce8eb5abbee9b3159a0bb5eb0139f07b73aaf14a442e0321bd9f31b0d7843');
    expect(toHex(await folderElement(k, FOLDER))).toBe('5bc86fbe9a9f8080673ebf29aba25c46e4eaccb293c4533a7b8a472382adcb00');
    const sealed = await sealVaultState(k, { counter: 7, entries: 3, folders: 2, sum: numberBytes(1n) });
    expect(sealed).toEqual({
      counter: 7,
      entries: 3,
      folders: 2,
      sum: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAE',
      tag: 'ssqjpv2DJZl_K6xGiHyjZX7xIhyepZ37h6OxTyhGrdg',
    });
  });

  it('is the same key when derived from the vault key imported as a non-extractable HKDF key', async () => {
    const hkdfKey = await subtle.importKey('raw', VAULT_KEY, 'HKDF', false, ['deriveKey']);
    const fromHkdf = await deriveVaultIntegrityKeyFromHkdf(hkdfKey);
    const fromBytes = await key();
    expect(toHex(await entryElement(fromHkdf, ENTRY))).toBe(toHex(await entryElement(fromBytes, ENTRY)));
    const body = { counter: 3, entries: 1, folders: 0, sum: hex32(9) };
    expect(await sealVaultState(fromHkdf, body)).toEqual(await sealVaultState(fromBytes, body));
  });

  it('is non-extractable and can only sign', async () => {
    const k = await key();
    expect(k.extractable).toBe(false);
    expect(k.usages).toEqual(['sign']);
    expect(k.algorithm).toMatchObject({ name: 'HMAC', length: 256 });
    await expect(subtle.exportKey('raw', k)).rejects.toThrow();
  });

  it('refuses a vault key of any length but 32 bytes, and a non-HKDF key', async () => {
    await expect(deriveVaultIntegrityKey(new Uint8Array(31))).rejects.toThrow(RangeError);
    await expect(deriveVaultIntegrityKey(new Uint8Array(33))).rejects.toThrow(RangeError);
    const aes = await subtle.importKey('raw', VAULT_KEY, 'AES-GCM', false, ['encrypt']);
    await expect(deriveVaultIntegrityKeyFromHkdf(aes)).rejects.toThrow(TypeError);
  });

  it('differs for another vault key', async () => {
    const other = await deriveVaultIntegrityKey(OTHER_VAULT_KEY);
    expect(toHex(await entryElement(other, ENTRY))).not.toBe(toHex(await entryElement(await key(), ENTRY)));
  });
});

describe('member elements', () => {
  const FIELDS = ['serviceName', 'username', 'password', 'url', 'notes', 'overview', 'details'] as const;

  it('are 32 bytes and deterministic', async () => {
    const k = await key();
    const a = await entryElement(k, ENTRY);
    expect(a).toHaveLength(32);
    expect(toHex(await entryElement(k, { ...ENTRY }))).toBe(toHex(a));
  });

  it('change with the id, the revision, and each of the seven fields', async () => {
    const k = await key();
    const variants: VaultEntryMember[] = [
      { ...ENTRY, id: '3f2504e0-4f89-41d3-9a0c-0305e82c3309' },
      { ...ENTRY, revision: 2 },
      ...FIELDS.map((field) => ({ ...ENTRY, [field]: `${ENTRY[field] ?? ''}x` })),
    ];
    const seen = new Set([toHex(await entryElement(k, ENTRY))]);
    for (const variant of variants) seen.add(toHex(await entryElement(k, variant)));
    expect(seen.size).toBe(variants.length + 1);
  });

  it('tell null from the empty text in each nullable field', async () => {
    const k = await key();
    for (const field of ['url', 'notes', 'overview', 'details'] as const) {
      const asNull = await entryElement(k, { ...ENTRY, [field]: null });
      const asEmpty = await entryElement(k, { ...ENTRY, [field]: '' });
      expect(toHex(asNull), field).not.toBe(toHex(asEmpty));
    }
  });

  it('depend on field order: swapping two values changes the element', async () => {
    const k = await key();
    const base = { ...ENTRY, username: 'a', password: 'b' };
    const swapped = { ...ENTRY, username: 'b', password: 'a' };
    expect(toHex(await entryElement(k, base))).not.toBe(toHex(await entryElement(k, swapped)));
  });

  it('keep text boundaries: moving characters between fields changes the element', async () => {
    const k = await key();
    const a = await entryElement(k, { ...ENTRY, serviceName: 'ab', username: 'c' });
    const b = await entryElement(k, { ...ENTRY, serviceName: 'a', username: 'bc' });
    expect(toHex(a)).not.toBe(toHex(b));
  });

  it('of an entry and a folder never coincide for the same id and revision', async () => {
    const k = await key();
    const folder = await folderElement(k, { id: ENTRY.id, revision: 1, name: 's' });
    expect(toHex(folder)).not.toBe(toHex(await entryElement(k, ENTRY)));
  });

  it('of a folder change with its id, revision and name', async () => {
    const k = await key();
    const seen = new Set(
      await Promise.all(
        [FOLDER, { ...FOLDER, id: ENTRY.id }, { ...FOLDER, revision: 3 }, { ...FOLDER, name: 'other' }].map(async (f) =>
          toHex(await folderElement(k, f)),
        ),
      ),
    );
    expect(seen.size).toBe(4);
  });

  it('refuse malformed members with a TypeError', async () => {
    const k = await key();
    await expect(entryElement(k, { ...ENTRY, id: '' })).rejects.toThrow(TypeError);
    await expect(entryElement(k, { ...ENTRY, id: 'a|1' })).rejects.toThrow(TypeError);
    await expect(entryElement(k, { ...ENTRY, revision: 1.5 })).rejects.toThrow(TypeError);
    await expect(entryElement(k, { ...ENTRY, revision: -1 })).rejects.toThrow(TypeError);
    await expect(entryElement(k, { ...ENTRY, password: null as unknown as string })).rejects.toThrow(TypeError);
    await expect(entryElement(k, { ...ENTRY, notes: undefined as unknown as null })).rejects.toThrow(TypeError);
    await expect(folderElement(k, { ...FOLDER, name: 1 as unknown as string })).rejects.toThrow(TypeError);
  });
});

describe('sums mod 2^256', () => {
  const MOD = 1n << 256n;
  const toNumber = (bytes: Uint8Array) => BigInt(`0x${toHex(bytes)}`);

  it('EMPTY_SUM is 32 zero bytes', () => {
    expect(toHex(EMPTY_SUM)).toBe('00'.repeat(32));
  });

  it('carry across all 32 bytes: 0xff..ff + 1 = 0, and 0 - 1 = 0xff..ff', () => {
    expect(toHex(addElement(hex32(0xff), numberBytes(1n)))).toBe('00'.repeat(32));
    expect(toHex(subtractElement(hex32(0), numberBytes(1n)))).toBe('ff'.repeat(32));
    expect(toHex(addElement(numberBytes(0xffn), numberBytes(1n)))).toBe(`${'00'.repeat(30)}0100`);
  });

  it('agree with BigInt arithmetic on random operands, and subtract undoes add', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.uint8Array({ minLength: 32, maxLength: 32 }), (a, b) => {
        const sum = addElement(a, b);
        expect(toNumber(sum)).toBe((toNumber(a) + toNumber(b)) % MOD);
        expect(toNumber(subtractElement(a, b))).toBe((toNumber(a) - toNumber(b) + MOD) % MOD);
        expect(toHex(subtractElement(sum, b))).toBe(toHex(a));
        expect(toHex(addElement(subtractElement(a, b), b))).toBe(toHex(a));
      }),
    );
  });

  it('return new arrays and leave inputs untouched', () => {
    const a = hex32(7);
    const b = hex32(9);
    const sum = addElement(a, b);
    expect(sum).not.toBe(a);
    expect(toHex(a)).toBe('07'.repeat(32));
    expect(toHex(b)).toBe('09'.repeat(32));
    expect(subtractElement(a, EMPTY_SUM)).not.toBe(a);
    const empty = sumOfElements([]);
    expect(empty).not.toBe(EMPTY_SUM);
    empty[0] = 1;
    expect(toHex(EMPTY_SUM)).toBe('00'.repeat(32));
  });

  it('refuse anything but 32 bytes with a RangeError', () => {
    expect(() => addElement(new Uint8Array(31), hex32(0))).toThrow(RangeError);
    expect(() => addElement(hex32(0), new Uint8Array(33))).toThrow(RangeError);
    expect(() => subtractElement(new Uint8Array(0), hex32(0))).toThrow(RangeError);
    expect(() => sumOfElements([hex32(1), new Uint8Array(16)])).toThrow(RangeError);
  });

  it('sumOfElements does not depend on order', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ minLength: 32, maxLength: 32 }), { maxLength: 20 }), (elements) => {
        const forward = toHex(sumOfElements(elements));
        expect(toHex(sumOfElements([...elements].reverse()))).toBe(forward);
        expect(toHex(sumOfElements(new Set(elements)))).toBe(forward);
      }),
    );
  });
});

describe('sealed vault states', () => {
  const BODY = { counter: 5, entries: 2, folders: 1, sum: hex32(0xab) };

  it('round-trip: a sealed state verifies and gives its sum back', async () => {
    const k = await key();
    const sealed = await sealVaultState(k, BODY);
    expect(sealed).toMatchObject({ counter: 5, entries: 2, folders: 1, sum: toBase64Url(BODY.sum) });
    expect(fromBase64Url(sealed.tag)).toHaveLength(32);
    expect(await verifyVaultState(k, sealed)).toBe(true);
    expect(toHex(sumFromState(sealed))).toBe('ab'.repeat(32));
  });

  it('do not verify after any change of counter, counts, sum or tag', async () => {
    const k = await key();
    const sealed = await sealVaultState(k, BODY);
    const tagBytes = fromBase64Url(sealed.tag);
    const changedTags = [0, 15, 31].map((i) => {
      const copy = Uint8Array.from(tagBytes);
      copy[i]! ^= 1;
      return toBase64Url(copy);
    });
    const altered: SealedVaultState[] = [
      { ...sealed, counter: 4 },
      { ...sealed, counter: 6 },
      { ...sealed, entries: 3 },
      { ...sealed, entries: 1 },
      { ...sealed, folders: 0 },
      { ...sealed, folders: 2 },
      { ...sealed, entries: 1, folders: 2 },
      { ...sealed, sum: toBase64Url(addElement(BODY.sum, numberBytes(1n))) },
      ...changedTags.map((tag) => ({ ...sealed, tag })),
    ];
    for (const state of altered) expect(await verifyVaultState(k, state), JSON.stringify(state)).toBe(false);
  });

  it('do not verify under another vault key', async () => {
    const sealed = await sealVaultState(await deriveVaultIntegrityKey(OTHER_VAULT_KEY), BODY);
    expect(await verifyVaultState(await key(), sealed)).toBe(false);
  });

  it('verification answers false, never throws, for malformed states', async () => {
    const k = await key();
    const sealed = await sealVaultState(k, BODY);
    const malformed = [
      { ...sealed, tag: `${sealed.tag}=` },
      { ...sealed, tag: sealed.tag.slice(0, 42) },
      { ...sealed, tag: `${sealed.tag}AAAA` },
      { ...sealed, tag: sealed.tag.replace(/^./, '+') },
      { ...sealed, sum: sealed.sum.slice(0, 40) },
      { ...sealed, sum: '!' },
      { ...sealed, counter: 0 },
      { ...sealed, counter: 1.5 },
      { ...sealed, entries: -1 },
      { ...sealed, folders: Number.NaN },
      { ...sealed, sum: null as unknown as string },
      { ...sealed, tag: 12 as unknown as string },
      null as unknown as SealedVaultState,
    ];
    for (const state of malformed) expect(await verifyVaultState(k, state), JSON.stringify(state)).toBe(false);
  });

  it('refuse to seal a counter below 1, counts below 0, non-integers or a short sum', async () => {
    const k = await key();
    for (const body of [
      { ...BODY, counter: 0 },
      { ...BODY, counter: 2.5 },
      { ...BODY, counter: Number.MAX_SAFE_INTEGER + 1 },
      { ...BODY, entries: -1 },
      { ...BODY, folders: 0.5 },
      { ...BODY, sum: new Uint8Array(31) },
    ]) {
      await expect(sealVaultState(k, body)).rejects.toThrow(RangeError);
    }
  });

  it('sumFromState refuses a sum that is not 32 bytes of base64url', () => {
    const base = { counter: 1, entries: 0, folders: 0, tag: '' };
    expect(() => sumFromState({ ...base, sum: 'AAAA' })).toThrow(RangeError);
    expect(() => sumFromState({ ...base, sum: '***' })).toThrow(RangeError);
  });
});

describe('the state over a set of members', () => {
  interface Member {
    kind: 'entry' | 'folder';
    id: string;
    revision: number;
    text: string;
  }
  const asEntry = (m: Member): VaultEntryMember => ({ ...ENTRY, id: m.id, revision: m.revision, password: m.text });
  const element = (k: CryptoKey, m: Member) =>
    m.kind === 'entry' ? entryElement(k, asEntry(m)) : folderElement(k, { id: m.id, revision: m.revision, name: m.text });
  const digest = async (k: CryptoKey, members: Member[]) => {
    const sum = sumOfElements(await Promise.all(members.map((m) => element(k, m))));
    const entries = members.filter((m) => m.kind === 'entry').length;
    return `${toHex(sum)}|${entries}|${members.length - entries}`;
  };
  const members = fc.uniqueArray(
    fc.record({
      kind: fc.constantFrom('entry' as const, 'folder' as const),
      id: fc.uuid(),
      revision: fc.integer({ min: 1, max: 50 }),
      text: fc.string({ maxLength: 8 }),
    }),
    { minLength: 1, maxLength: 12, selector: (m) => m.id },
  );

  it('changes in sum or count when a member is removed, duplicated, or rolled back to an older revision', async () => {
    const k = await key();
    await fc.assert(
      fc.asyncProperty(members, fc.nat(), fc.nat(), fc.string({ maxLength: 8 }), async (set, pick, back, oldText) => {
        const at = pick % set.length;
        const target = set[at]!;
        const honest = await digest(k, set);
        const removed = set.filter((_, i) => i !== at);
        const duplicated = [...set, target];
        expect(await digest(k, removed)).not.toBe(honest);
        expect(await digest(k, duplicated)).not.toBe(honest);
        if (target.revision > 1) {
          const older = { ...target, revision: 1 + (back % (target.revision - 1)), text: oldText };
          expect(
            await digest(
              k,
              set.map((m, i) => (i === at ? older : m)),
            ),
          ).not.toBe(honest);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('updates in O(1): old sum - old element + new element equals the sum recomputed from scratch', async () => {
    const k = await key();
    const before: Member[] = [
      { kind: 'entry', id: ENTRY.id, revision: 1, text: 'a' },
      { kind: 'folder', id: FOLDER.id, revision: 1, text: 'f' },
    ];
    const updated: Member = { kind: 'entry', id: ENTRY.id, revision: 2, text: 'b' };
    const after = [updated, before[1]!];
    const sumBefore = sumOfElements(await Promise.all(before.map((m) => element(k, m))));
    const incremental = addElement(subtractElement(sumBefore, await element(k, before[0]!)), await element(k, updated));
    expect(toHex(incremental)).toBe(toHex(sumOfElements(await Promise.all(after.map((m) => element(k, m))))));
  });
});

describe('trashed members (state v2)', () => {
  const TRASHED = { ...ENTRY, revision: 2 };
  const AT = 1_790_000_000_000;

  it('bind the trash time: another time, revision, id or ciphertext gives another element', async () => {
    const k = await key();
    const honest = toHex(await trashedElementOf(k, TRASHED, AT));
    const others = await Promise.all([
      trashedElementOf(k, TRASHED, AT - 1),
      trashedElementOf(k, TRASHED, AT - 31 * 24 * 60 * 60 * 1000),
      trashedElementOf(k, { ...TRASHED, revision: 3 }, AT),
      trashedElementOf(k, { ...TRASHED, id: FOLDER.id }, AT),
      trashedElementOf(k, { ...TRASHED, password: 'q' }, AT),
    ]);
    for (const other of others) expect(toHex(other)).not.toBe(honest);
  });

  it('never equal the live element of the same entry, at its revision or the one before', async () => {
    const k = await key();
    const trashed = toHex(await trashedElementOf(k, TRASHED, AT));
    expect(trashed).not.toBe(toHex(await entryElement(k, TRASHED)));
    expect(trashed).not.toBe(toHex(await entryElement(k, { ...TRASHED, revision: 1 })));
  });

  it('are made in O(1) from the live element the entry had before the move, without its ciphertexts', async () => {
    const k = await key();
    const live = await entryElement(k, ENTRY);
    const fromLive = await trashedEntryElement(k, { id: ENTRY.id, revision: ENTRY.revision + 1, trashedAt: AT }, live);
    expect(toHex(fromLive)).toBe(toHex(await trashedElementOf(k, { ...ENTRY, revision: ENTRY.revision + 1 }, AT)));
  });

  it('refuse a revision below 1, a trash time that is not a whole number from 0, and an element of another length', async () => {
    const k = await key();
    await expect(trashedElementOf(k, { ...ENTRY, revision: 0 }, AT)).rejects.toThrow(TypeError);
    await expect(trashedElementOf(k, TRASHED, -1)).rejects.toThrow(TypeError);
    await expect(trashedElementOf(k, TRASHED, 1.5)).rejects.toThrow(TypeError);
    await expect(trashedEntryElement(k, { id: ENTRY.id, revision: 2, trashedAt: AT }, new Uint8Array(31))).rejects.toThrow(
      RangeError,
    );
  });
});

describe('version 2 states (Trash counted)', () => {
  const BODY = { counter: 5, entries: 2, trashed: 1, folders: 1, sum: hex32(0xab) };

  it('round-trip with their Trash count, and do not verify with another count', async () => {
    const k = await key();
    const sealed = await sealVaultState(k, BODY);
    expect(sealed).toMatchObject({ counter: 5, entries: 2, trashed: 1, folders: 1 });
    expect(await verifyVaultState(k, sealed)).toBe(true);
    expect(await verifyVaultState(k, { ...sealed, trashed: 0 })).toBe(false);
    expect(await verifyVaultState(k, { ...sealed, trashed: 2 })).toBe(false);
  });

  it('never pass as a version 1 state, nor a version 1 state as version 2', async () => {
    const k = await key();
    const v2 = await sealVaultState(k, { ...BODY, trashed: 0 });
    const { trashed: _dropped, ...asV1 } = v2;
    expect(await verifyVaultState(k, asV1)).toBe(false);
    const { trashed: _none, ...v1Body } = BODY;
    const v1 = await sealVaultState(k, v1Body);
    expect(v1.trashed).toBeUndefined();
    expect(await verifyVaultState(k, v1)).toBe(true);
    expect(await verifyVaultState(k, { ...v1, trashed: 0 })).toBe(false);
  });

  it('refuse to seal a Trash count below 0 or not whole', async () => {
    const k = await key();
    await expect(sealVaultState(k, { ...BODY, trashed: -1 })).rejects.toThrow(RangeError);
    await expect(sealVaultState(k, { ...BODY, trashed: 0.5 })).rejects.toThrow(RangeError);
  });
});
