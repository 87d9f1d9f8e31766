import { describe, expect, it } from 'vitest';
import { ownFixture, textFile } from '../../test/fixture-file';
import { ImportFileError } from '../import-format';
import { keepassXmlFormat } from './keepass-xml';

const parse = (file: ReturnType<typeof textFile>) => keepassXmlFormat.parse(file, {});

describe('KeePass 2 XML import', () => {
  it("reads Bitwarden's KeePass 2 spec file: folder, protected password, multi-line notes and custom fields", async () => {
    const file = ownFixture('keepass2-bitwarden.xml');
    expect(keepassXmlFormat.detect(file)).toBeGreaterThan(0.9);
    const result = await parse(file);
    expect(result.skipped).toEqual([]);
    expect(result.items).toHaveLength(1);
    const [google] = result.items;
    expect(google).toMatchObject({
      type: 'login',
      name: 'Google',
      username: 'googleuser',
      password: 'googpass',
      urls: ['google.com'],
      notes: 'This is a note!!!\n\nline1\nline2',
      folder: 'Folder2',
      createdAt: '2016-12-31T21:34:13.000Z',
      updatedAt: '2016-12-31T21:40:23.000Z',
      // The only history version has the current password: nothing earlier to keep.
      passwordHistory: [],
    });
    expect(google?.fields).toEqual([
      { label: 'att2', kind: 'text', value: 'att2value' },
      { label: 'attr1', kind: 'text', value: 'att1value\n\nline1\nline2' },
    ]);
  });

  it('keeps nested folders, tags, TOTP, extra URLs, hidden fields, entities and history; skips the recycle bin and empty entries with reasons', async () => {
    const result = await parse(ownFixture('keepassxc-own.xml'));
    const byName = new Map(result.items.map((item) => [item.name, item]));
    expect([...byName.keys()]).toEqual(['Shop & Co', 'Bank', 'Safe combination']);

    const shop = byName.get('Shop & Co');
    expect(shop).toMatchObject({
      type: 'login',
      username: 'ana@example.org',
      password: 'p<a>s"s\'&,`\\ €€A',
      urls: ['https://shop.example.org/login', 'https://m.shop.example.org'],
      totp: 'otpauth://totp/Shop:ana?secret=JBSWY3DPEHPK3PXP&period=30&digits=6&issuer=Shop',
      notes: 'First line\nSecond line',
      tags: ['shopping', '2fa'],
      folder: null,
      passwordHistory: [
        { password: 'older', changedAt: '2023-09-01T10:00:00.000Z' },
        { password: 'oldest', changedAt: '2023-03-01T10:00:00.000Z' },
      ],
    });
    expect(shop?.fields).toEqual([
      { label: 'PIN', kind: 'hidden', value: '4321' },
      { label: 'Customer number', kind: 'text', value: 'C-99' },
    ]);

    const bank = byName.get('Bank');
    expect(bank?.folder).toBe('Work/Banking');
    expect(bank?.totp).toBe('otpauth://totp/Bank?secret=GEZDGNBVGY3TQOJQ&period=60&digits=8&algorithm=SHA1');
    expect(bank?.fields).toEqual([]);

    expect(byName.get('Safe combination')).toMatchObject({ type: 'note', notes: '12-34-56', folder: 'Work/Banking' });

    const reasons = result.skipped.map((record) => record.reason);
    expect(reasons).toContainEqual(expect.stringContaining('receipt.pdf'));
    expect(reasons).toContainEqual(expect.stringMatching(/Entry 4 is empty/));
    expect(reasons).toContainEqual(
      expect.stringContaining('"Recycle Bin" is KeePass\'s recycle bin: its 1 deleted entry was not imported'),
    );
  });

  it("keeps an entry's expiry date as an Expires field, only when its Expires box is ticked", async () => {
    const entry = (title: string, expires: string) =>
      `<Entry><Times><Expires>${expires}</Expires><ExpiryTime>2027-03-31T12:00:00Z</ExpiryTime></Times>` +
      `<String><Key>Title</Key><Value>${title}</Value></String><String><Key>Password</Key><Value>p</Value></String></Entry>`;
    const xml = `<KeePassFile><Root><Group><Name>Root</Name>${entry('Ends', 'True')}${entry('Stays', 'False')}</Group></Root></KeePassFile>`;
    const { items } = await parse(textFile(xml, 'db.xml'));
    expect(items.map((item) => [item.name, item.fields])).toEqual([
      ['Ends', [{ label: 'Expires', kind: 'text', value: '2027-03-31T12:00:00.000Z' }]],
      ['Stays', []],
    ]);
  });

  it('says nothing of an empty recycle bin: no entry was dropped', async () => {
    const xml =
      '<KeePassFile><Meta><RecycleBinUUID>bin+UUID/AAAAAAAAAAA==</RecycleBinUUID></Meta><Root><Group><Name>Root</Name>' +
      '<Entry><String><Key>Title</Key><Value>Mail</Value></String><String><Key>Password</Key><Value>p</Value></String></Entry>' +
      '<Group><UUID>bin+UUID/AAAAAAAAAAA==</UUID><Name>Recycle Bin</Name></Group></Group></Root></KeePassFile>';
    const { items, skipped } = await parse(textFile(xml, 'db.xml'));
    expect(items.map((item) => item.name)).toEqual(['Mail']);
    expect(skipped).toEqual([]);
  });

  it('refuses an entity bomb (billion laughs) before parsing, naming the line', async () => {
    const bomb = [
      '<?xml version="1.0"?>',
      '<!DOCTYPE KeePassFile [',
      '<!ENTITY a "aaaaaaaaaa">',
      '<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">',
      '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">',
      ']>',
      '<KeePassFile><Root><Group><Name>&c;</Name></Group></Root></KeePassFile>',
    ].join('\n');
    const error = await parse(textFile(bomb, 'bomb.xml')).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ImportFileError);
    expect((error as ImportFileError).message).toMatch(/DOCTYPE or XML entities/);
    expect((error as ImportFileError).line).toBe(2);
  });

  it('refuses an external entity', async () => {
    const xxe = '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><KeePassFile><Root/></KeePassFile>';
    await expect(parse(textFile(xxe, 'x.xml'))).rejects.toThrow(ImportFileError);
  });

  it('refuses malformed XML with its line', async () => {
    const broken = '<?xml version="1.0"?>\n<KeePassFile>\n<Root><Group><Name>x</Group>\n</Root></KeePassFile>';
    const error = await parse(textFile(broken, 'broken.xml')).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ImportFileError);
    expect((error as ImportFileError).line).toBe(3);
  });

  it('refuses XML that is not a KeePass export', async () => {
    await expect(parse(textFile('<?xml version="1.0"?><html><body/></html>', 'page.xml'))).rejects.toThrow(
      /not a KeePass export/,
    );
  });

  it('refuses the encrypted inner XML of a .kdbx (Protected values) rather than import ciphertext as passwords', async () => {
    const inner =
      '<KeePassFile><Root><Group><Name>Root</Name><Entry><String><Key>Password</Key><Value Protected="True">q2x9</Value></String></Entry></Group></Root></KeePassFile>';
    await expect(parse(textFile(inner, 'inner.xml'))).rejects.toThrow(/encrypted values/);
  });

  it('does not claim CSV or JSON files', () => {
    expect(keepassXmlFormat.detect(textFile('name,url\nx,y\n'))).toBe(0);
    expect(keepassXmlFormat.detect(textFile('{"items":[]}'))).toBe(0);
  });
});
