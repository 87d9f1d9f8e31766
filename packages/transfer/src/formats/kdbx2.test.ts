import * as kdbxNamespace from 'kdbxweb';
import { describe, expect, it } from 'vitest';
import { ownFixture } from '../../test/fixture-file';
import { KDBX2_PASSWORD } from '../../test/kdbx2-fixtures';
import { ImportFileError, ImportPasswordError, type ImportFile } from '../import-format';
import { kdbxFormat } from './kdbx';

const kdbxweb = (kdbxNamespace as unknown as { default?: typeof kdbxNamespace }).default ?? kdbxNamespace;

const withPassword = ownFixture('kdbx2.kdbx');
const withKeyFile = ownFixture('kdbx2-keyfile.kdbx');
const keyFile = ownFixture('kdbx2-keyfile.key').bytes;

/** The version field of the outer header, "major.minor" as KeePass writes it (2.04). */
function versionOf(file: ImportFile): string {
  const view = new DataView(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength);
  return `${view.getUint16(10, true)}.${String(view.getUint16(8, true)).padStart(2, '0')}`;
}

/** The file with another version field, as another KeePass would have labelled the same bytes. */
function withVersion(file: ImportFile, major: number, minor: number): ImportFile {
  const bytes = file.bytes.slice();
  const view = new DataView(bytes.buffer);
  view.setUint16(8, minor, true);
  view.setUint16(10, major, true);
  return { name: file.name, bytes };
}

/** The file with one 4-byte field of its outer header (id, 2-byte length, value) set to `value`. */
function withHeaderField(file: ImportFile, id: number, value: number): ImportFile {
  const bytes = file.bytes.slice();
  const view = new DataView(bytes.buffer);
  for (let at = 12; bytes[at] !== 0; at += 3 + view.getUint16(at + 1, true)) {
    if (bytes[at] === id) {
      view.setUint32(at + 3, value, true);
      return { name: file.name, bytes };
    }
  }
  throw new Error(`no header field ${id}`);
}

const password = (file: ImportFile) => kdbxFormat.parse(file, { password: KDBX2_PASSWORD });
const caught = (promise: Promise<unknown>) =>
  promise.then(
    () => new Error('parsed'),
    (error: unknown) => error,
  );

describe('KDBX 2 import (KeePass 2.09 to 2.14)', () => {
  it('has fixtures that are KDBX 2 files: version 2.x, a real database, no HeaderHash in its XML', async () => {
    expect(versionOf(withPassword)).toBe('2.04');
    expect(versionOf(withKeyFile)).toBe('2.00');
    // kdbxweb reads the same bytes once labelled 3.0, and finds no HeaderHash in the XML.
    const db = await kdbxweb.Kdbx.load(
      withVersion(withPassword, 3, 0).bytes.slice().buffer,
      new kdbxweb.Credentials(kdbxweb.ProtectedValue.fromString(KDBX2_PASSWORD)),
    );
    expect(db.meta.headerHash).toBeUndefined();
    expect(kdbxFormat.detect(withPassword)).toBe(1);
  });

  it('imports every field of a password-protected KDBX 2 database, as from KDBX 3 and 4', async () => {
    const result = await password(withPassword);
    expect(result.format).toBe('kdbx');
    expect(result.items).toHaveLength(2);
    const [mail, bank] = result.items;
    expect(mail).toMatchObject({
      type: 'login',
      name: 'Mail',
      username: 'ana@example.org',
      password: 'p,a"s\'s`\\ w|{}$',
      urls: ['https://mail.example.org'],
      totp: 'JBSWY3DPEHPK3PXP',
      notes: 'line one\nline two',
      folder: null,
    });
    expect(mail?.fields).toEqual([
      { label: 'Recovery code', kind: 'hidden', value: 'R-123' },
      { label: 'Account number', kind: 'text', value: '0042' },
    ]);
    expect(mail?.passwordHistory.map((entry) => entry.password)).toEqual(['first']);
    expect(bank).toMatchObject({
      name: 'Bank',
      username: '12345',
      password: 'bank',
      urls: ['https://bank.example.org/login'],
      folder: 'Work/Banking',
      fields: [{ label: 'Expires', kind: 'text', value: '2027-03-31T12:00:00.000Z' }],
    });
    const reasons = result.skipped.map((record) => record.reason);
    // KDBX 3.1 keeps binaries in Meta/Binaries of the inner XML: brought in with their entry.
    expect(mail?.attachments).toEqual([{ name: 'key.txt', bytes: new TextEncoder().encode('attachment') }]);
    expect(reasons).toContainEqual(expect.stringContaining('recycle bin: its 1 deleted entry was not imported'));
  });

  it('opens a KDBX 2 database that needs a key file beside its password, and asks for the key file without it', async () => {
    const without = await caught(password(withKeyFile));
    expect(without).toBeInstanceOf(ImportPasswordError);
    expect((without as Error).message).toMatch(
      /^That password does not open this database\. If the database also needs a key file/,
    );
    const { items } = await kdbxFormat.parse(withKeyFile, { password: KDBX2_PASSWORD, keyFile });
    expect(items.map((item) => [item.folder, item.name, item.username, item.password, item.urls])).toEqual([
      ['Home', 'Router', 'admin', 'r0uter!', ['http://192.168.1.1']],
    ]);
  });

  it('says a wrong password is wrong', async () => {
    const error = await caught(kdbxFormat.parse(withPassword, { password: 'not it' }));
    expect(error).toBeInstanceOf(ImportPasswordError);
    expect((error as ImportPasswordError).reason).toBe('wrong');
  });

  it('refuses a truncated or damaged KDBX 2 file as damaged, not as a wrong password', async () => {
    const flipped = withPassword.bytes.slice();
    flipped[flipped.length - 300]! ^= 0xff;
    const damaged = [
      withPassword.bytes.slice(0, -100),
      // Cut at a block boundary: the AES padding check fails as it does for a wrong key.
      withPassword.bytes.slice(0, -256),
      flipped,
    ];
    for (const bytes of damaged) {
      const error = await caught(password({ name: 'damaged.kdbx', bytes }));
      expect(error).toBeInstanceOf(ImportFileError);
      expect((error as Error).message).toMatch(/^The database cannot be read: it is damaged or cut short/);
    }
    const header = await caught(password({ name: 'header.kdbx', bytes: withPassword.bytes.slice(0, 60) }));
    expect(header).toBeInstanceOf(ImportFileError);
    expect((header as Error).message).toMatch(/^The database's header cannot be read: the file is damaged or cut short/);
  });

  it('still says a wrong password is wrong when the file is also cut short', async () => {
    const cut = { name: 'cut.kdbx', bytes: withPassword.bytes.slice(0, -256) };
    const error = await caught(kdbxFormat.parse(cut, { password: 'not it' }));
    expect(error).toBeInstanceOf(ImportPasswordError);
    expect((error as ImportPasswordError).reason).toBe('wrong');
  });

  it('refuses a file labelled KDBX 2 whose XML carries a HeaderHash of another header, instead of reading it unchecked', async () => {
    // A KDBX 3.1 file binds its header with HeaderHash; labelled 2.x, that header no longer matches.
    const saved = await kdbxweb.Kdbx.load(
      withVersion(withPassword, 3, 0).bytes.slice().buffer,
      new kdbxweb.Credentials(kdbxweb.ProtectedValue.fromString(KDBX2_PASSWORD)),
    );
    saved.setVersion(3);
    const relabelled = withVersion({ name: 'relabelled.kdbx', bytes: new Uint8Array(await saved.save()) }, 2, 4);
    const error = await caught(password(relabelled));
    expect(error).toBeInstanceOf(ImportFileError);
    expect((error as Error).message).toMatch(/damaged or cut short \(.*header hash mismatch/);
  });

  it('refuses a database whose hidden values use the ArcFour variant, which kdbxweb cannot decrypt', async () => {
    const arcFour = withHeaderField(withPassword, 10, 1);
    await expect(password(arcFour)).rejects.toThrow(
      /^The database protects its hidden fields with KeePass's old ArcFour variant/,
    );
  });

  it('names the versions nothing here reads: KDBX 1 (KeePass 2.07, 2.08) and past KDBX 4', async () => {
    await expect(password(withVersion(withPassword, 1, 2))).rejects.toThrow(
      /^This is a KDBX 1\.02 database \(KeePass 2\.07 or 2\.08\)/,
    );
    await expect(password(withVersion(withPassword, 5, 0))).rejects.toThrow(/^This is a KDBX 5 database, newer than/);
  });
});
