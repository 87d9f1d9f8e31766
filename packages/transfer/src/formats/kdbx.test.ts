import { gzipSync } from 'fflate';
import * as kdbxNamespace from 'kdbxweb';
import { beforeAll, describe, expect, it } from 'vitest';
import { ImportFileError, ImportPasswordError, type ImportFile } from '../import-format';
import { configureKdbxweb, kdbxFormat, KDBX_LIMITS } from './kdbx';
import { checkInnerGzip, KDBX_MAX_INNER_BYTES } from './kdbx-guards';

const kdbxweb = (kdbxNamespace as unknown as { default?: typeof kdbxNamespace }).default ?? kdbxNamespace;
const PASSWORD = 'correct horse battery staple';
/** Every byte value, twice: a binary attachment that no text decoding would keep intact. */
const SCAN = Uint8Array.from({ length: 512 }, (_, i) => i % 256);

type Kdf = 'argon2d' | 'argon2id' | 'aes' | 'kdbx3';

/** A real KDBX file written by kdbxweb (no public sample with a known password and these entries exists). */
async function buildDatabase(kdf: Kdf): Promise<ImportFile> {
  const db = kdbxweb.Kdbx.create(new kdbxweb.Credentials(kdbxweb.ProtectedValue.fromString(PASSWORD)), 'Passwords');
  if (kdf === 'kdbx3') {
    db.setVersion(3);
    db.header.keyEncryptionRounds = 2000;
  } else if (kdf === 'aes') {
    db.setKdf(kdbxweb.Consts.KdfId.Aes);
    db.header.kdfParameters?.set('R', kdbxweb.VarDictionary.ValueType.UInt64, kdbxweb.Int64.from(2000));
  } else if (kdf === 'argon2id') {
    db.setKdf(kdbxweb.Consts.KdfId.Argon2id);
  }
  const root = db.getDefaultGroup();
  const mail = db.createEntry(root);
  mail.fields.set('Title', 'Mail');
  mail.fields.set('UserName', 'ana@example.org');
  mail.fields.set('Password', kdbxweb.ProtectedValue.fromString('first'));
  mail.fields.set('URL', 'https://mail.example.org');
  mail.pushHistory();
  mail.fields.set('Password', kdbxweb.ProtectedValue.fromString('p,a"s\'s`\\ w|{}$'));
  mail.fields.set('otp', 'otpauth://totp/Mail?secret=JBSWY3DPEHPK3PXP&period=30');
  mail.fields.set('Recovery code', kdbxweb.ProtectedValue.fromString('R-123'));
  mail.fields.set('Notes', 'line one\nline two');
  mail.tags = ['mail', 'personal'];
  mail.binaries.set('key.txt', await db.createBinary(kdbxweb.ProtectedValue.fromString('attachment')));
  mail.binaries.set('scan.bin', await db.createBinary(SCAN.slice().buffer));

  const banking = db.createGroup(db.createGroup(root, 'Work'), 'Banking');
  const bank = db.createEntry(banking);
  bank.fields.set('Title', 'Bank');
  bank.fields.set('UserName', '12345');
  bank.fields.set('Password', kdbxweb.ProtectedValue.fromString('bank'));
  bank.times.expires = true;
  bank.times.expiryTime = new Date('2027-03-31T12:00:00Z');

  const deleted = db.createEntry(root);
  deleted.fields.set('Title', 'Old account');
  db.remove(deleted);
  configureKdbxweb();
  return { name: `${kdf}.kdbx`, bytes: new Uint8Array(await db.save()) };
}

/**
 * The file with one UInt64 KDF parameter rewritten in its plain header (type 5, 1-byte name,
 * 8-byte value). Saving with a hostile cost would run that cost in the test, so the cost is
 * written into the bytes of a file saved with a cheap one, as a hostile file would carry it.
 */
function withKdfParameter(file: ImportFile, name: 'M' | 'I' | 'R', value: number): ImportFile {
  const bytes = file.bytes.slice();
  const marker = [0x05, 0x01, 0x00, 0x00, 0x00, name.charCodeAt(0), 0x08, 0x00, 0x00, 0x00];
  const at = bytes.findIndex((_, index) => marker.every((byte, offset) => bytes[index + offset] === byte));
  if (at === -1) throw new Error(`no KDF parameter ${name} in the header`);
  new DataView(bytes.buffer).setBigUint64(at + marker.length, BigInt(value), true);
  return { name: file.name, bytes };
}

describe('KDBX import', () => {
  let argon2d: ImportFile;
  beforeAll(async () => {
    argon2d = await buildDatabase('argon2d');
  });

  it('is detected from its signature', () => {
    expect(kdbxFormat.detect(argon2d)).toBe(1);
    expect(kdbxFormat.detect({ name: 'x.csv', bytes: new TextEncoder().encode('name,url\n') })).toBe(0);
  });

  it('opens a KDBX 4 Argon2d database: folders, TOTP, hidden fields, tags, history, attachments; recycle bin reported', async () => {
    const result = await kdbxFormat.parse(argon2d, { password: PASSWORD });
    expect(result.format).toBe('kdbx');
    const [mail, bank] = result.items;
    expect(result.items).toHaveLength(2);
    expect(mail).toMatchObject({
      type: 'login',
      name: 'Mail',
      username: 'ana@example.org',
      password: 'p,a"s\'s`\\ w|{}$',
      urls: ['https://mail.example.org'],
      totp: 'otpauth://totp/Mail?secret=JBSWY3DPEHPK3PXP&period=30',
      notes: 'line one\nline two',
      tags: ['mail', 'personal'],
      folder: null,
      fields: [{ label: 'Recovery code', kind: 'hidden', value: 'R-123' }],
    });
    expect(mail?.passwordHistory.map((entry) => entry.password)).toEqual(['first']);
    expect(mail?.createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(bank).toMatchObject({ name: 'Bank', folder: 'Work/Banking', password: 'bank' });
    const reasons = result.skipped.map((record) => record.reason);
    expect(reasons).toEqual(['The group "Recycle Bin" is KeePass\'s recycle bin: its 1 deleted entry was not imported.']);
    // A protected binary (decrypted from the inner stream) and a plain one, byte for byte.
    expect(mail?.attachments).toEqual([
      { name: 'key.txt', bytes: new TextEncoder().encode('attachment') },
      { name: 'scan.bin', bytes: SCAN },
    ]);
    expect(bank?.attachments).toBeUndefined();
  });

  it.each(['argon2id', 'aes', 'kdbx3'] as const)('opens a database whose key derivation is %s', async (kdf) => {
    const result = await kdbxFormat.parse(await buildDatabase(kdf), { password: PASSWORD });
    expect(result.items.map((item) => [item.name, item.username, item.password])).toEqual([
      ['Mail', 'ana@example.org', 'p,a"s\'s`\\ w|{}$'],
      ['Bank', '12345', 'bank'],
    ]);
  });

  it("keeps an entry's expiry date as an Expires field", async () => {
    const { items } = await kdbxFormat.parse(argon2d, { password: PASSWORD });
    expect(items.find((item) => item.name === 'Bank')?.fields).toEqual([
      { label: 'Expires', kind: 'text', value: '2027-03-31T12:00:00.000Z' },
    ]);
    expect(items.find((item) => item.name === 'Mail')?.fields.map((field) => field.label)).not.toContain('Expires');
  });

  it('opens a database that needs a key file beside its password, and says so when the key file is missing', async () => {
    const keyFile = await kdbxweb.Credentials.createRandomKeyFile(2);
    const credentials = new kdbxweb.Credentials(kdbxweb.ProtectedValue.fromString(PASSWORD), keyFile);
    await credentials.ready;
    const db = kdbxweb.Kdbx.create(credentials, 'Keyed');
    db.setKdf(kdbxweb.Consts.KdfId.Aes);
    db.header.kdfParameters?.set('R', kdbxweb.VarDictionary.ValueType.UInt64, kdbxweb.Int64.from(2000));
    const entry = db.createEntry(db.getDefaultGroup());
    entry.fields.set('Title', 'Keyed site');
    entry.fields.set('Password', kdbxweb.ProtectedValue.fromString('k'));
    const file = { name: 'keyed.kdbx', bytes: new Uint8Array(await db.save()) };

    const without = await kdbxFormat.parse(file, { password: PASSWORD }).catch((caught: unknown) => caught);
    expect(without).toBeInstanceOf(ImportPasswordError);
    expect((without as ImportPasswordError).message).toBe(
      'That password does not open this database. If the database also needs a key file, choose the key file too and try again.',
    );
    const wrongKey = await kdbxweb.Credentials.createRandomKeyFile(2);
    await expect(kdbxFormat.parse(file, { password: PASSWORD, keyFile: wrongKey })).rejects.toThrow(
      'That password and key file do not open this database.',
    );
    const { items } = await kdbxFormat.parse(file, { password: PASSWORD, keyFile });
    expect(items.map((item) => [item.name, item.password])).toEqual([['Keyed site', 'k']]);
  });

  it('asks for the password when none is given, and says a wrong one is wrong', async () => {
    await expect(kdbxFormat.parse(argon2d, {})).rejects.toEqual(new ImportPasswordError('missing'));
    const error = await kdbxFormat.parse(argon2d, { password: 'not it' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ImportPasswordError);
    expect((error as ImportPasswordError).reason).toBe('wrong');
  });

  it('refuses a truncated file as damaged, not as a wrong password', async () => {
    const cut = { name: 'cut.kdbx', bytes: argon2d.bytes.slice(0, argon2d.bytes.length - 200) };
    const error = await kdbxFormat.parse(cut, { password: PASSWORD }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ImportFileError);
    expect((error as ImportFileError).message).toMatch(/damaged or cut short/);
    // KDBX 3.1, cut at a block boundary: its AES padding fails as with a wrong key, yet the key is right.
    const kdbx3 = await buildDatabase('kdbx3');
    const cut3 = { name: 'cut3.kdbx', bytes: kdbx3.bytes.slice(0, kdbx3.bytes.length - 256) };
    await expect(kdbxFormat.parse(cut3, { password: PASSWORD })).rejects.toThrow(
      /^The database cannot be read: it is damaged or cut short/,
    );
    const header = { name: 'header.kdbx', bytes: argon2d.bytes.slice(0, 40) };
    await expect(kdbxFormat.parse(header, { password: PASSWORD })).rejects.toThrow(/header cannot be read/);
  });

  it('refuses an Argon2 memory cost past 1 GiB before deriving anything (even before asking the password)', async () => {
    const hostile = withKdfParameter(argon2d, 'M', KDBX_LIMITS.argon2MemoryBytes * 4);
    const started = Date.now();
    await expect(kdbxFormat.parse(hostile, {})).rejects.toThrow(/4096 MiB of Argon2 memory.*more than Lockit allows/);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('refuses Argon2 work (memory x passes) past the bound', async () => {
    const hostile = withKdfParameter(argon2d, 'I', 100_000);
    await expect(kdbxFormat.parse(hostile, { password: PASSWORD })).rejects.toThrow(/100000 Argon2 passes/);
  });

  it('refuses AES-KDF rounds past the bound', async () => {
    const hostile = withKdfParameter(await buildDatabase('aes'), 'R', KDBX_LIMITS.aesRounds + 1);
    await expect(kdbxFormat.parse(hostile, { password: PASSWORD })).rejects.toThrow(/AES rounds/);
  });

  it('refuses a database whose decrypted XML declares entities (an entity bomb behind a known password)', async () => {
    // kdbxweb writes whatever its serializer returns: a DOCTYPE is put in front of the XML.
    const xmlUtils = kdbxweb.XmlUtils as { serialize: (doc: Document, pretty?: boolean) => string };
    const serialize = xmlUtils.serialize;
    xmlUtils.serialize = (doc, pretty) =>
      serialize(doc, pretty).replace(
        '<KeePassFile>',
        '<!DOCTYPE KeePassFile [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]><KeePassFile>',
      );
    let bomb: ImportFile;
    try {
      bomb = await buildDatabase('argon2d');
    } finally {
      xmlUtils.serialize = serialize;
    }
    await expect(kdbxFormat.parse(bomb, { password: PASSWORD })).rejects.toThrow(/DOCTYPE or XML entities/);
  });

  it('explains that a KeePass 1 .kdb cannot be read: a format of its own, not KDBX', async () => {
    const kdb = { name: 'old.kdb', bytes: new Uint8Array([0x03, 0xd9, 0xa2, 0x9a, 0x65, 0xfb, 0x4b, 0xb5, 0, 0, 0, 0]) };
    expect(kdbxFormat.detect(kdb)).toBeGreaterThan(0.5);
    await expect(kdbxFormat.parse(kdb, { password: 'x' })).rejects.toThrow(
      /^This is a KeePass 1 database \(\.kdb\), which Lockit cannot read: KeePass 1 has a format of its own, not KDBX\./,
    );
  });
});

describe('the inflation guard on a KDBX payload', () => {
  it('passes real gzip data and anything that is not gzip', () => {
    const gzip = gzipSync(new TextEncoder().encode('<KeePassFile/>'.repeat(100)));
    expect(checkInnerGzip(gzip.slice().buffer).byteLength).toBe(gzip.length);
    expect(checkInnerGzip(new Uint8Array([1, 2, 3]).buffer).byteLength).toBe(3);
  });

  it('refuses gzip data declaring more than 256 MB, and data longer than its declared size allows', () => {
    const gzip = gzipSync(new TextEncoder().encode('x'.repeat(1000)));
    const huge = gzip.slice();
    new DataView(huge.buffer).setUint32(huge.length - 4, KDBX_MAX_INNER_BYTES + 1, true);
    expect(() => checkInnerGzip(huge.buffer)).toThrow(/inflates to 256 MB, more than Lockit reads/);
    const padded = new Uint8Array(gzip.length + 4096);
    padded.set(gzip.subarray(0, gzip.length - 8));
    padded.set(gzip.subarray(gzip.length - 8), padded.length - 8);
    expect(() => checkInnerGzip(padded.buffer)).toThrow(/does not match its declared size/);
  });
});
