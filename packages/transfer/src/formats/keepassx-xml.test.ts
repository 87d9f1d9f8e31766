import { describe, expect, it } from 'vitest';
import { ownFixture, textFile } from '../../test/fixture-file';
import { ImportFileError } from '../import-format';
import { keepassxXmlFormat } from './keepassx-xml';
import { detectFormat } from './registry';

describe('KeePassX 0.4 XML', () => {
  it('is detected by its DOCTYPE and offered first', () => {
    const file = ownFixture('keepassx-0.4.xml');
    expect(keepassxXmlFormat.detect(file)).toBeGreaterThan(0.9);
    expect(detectFormat(file)[0]?.format.id).toBe('keepassx-xml');
  });

  it('reads entries with every field, nested groups, line breaks and expiry; brings its attachment in; reports the Backup group', async () => {
    const { items, skipped } = await keepassxXmlFormat.parse(ownFixture('keepassx-0.4.xml'), {});
    expect(items).toHaveLength(2);
    expect(items[0]).toMatchObject({
      type: 'login',
      name: 'Forum & Co',
      username: 'kim',
      password: 'p<w>"1\'\\',
      urls: ['https://forum.example'],
      notes: 'first line\nsecond line',
      folder: 'Internet',
      fields: [{ label: 'Expires', kind: 'text', value: new Date('2030-12-31T23:59:59').toISOString() }],
      createdAt: new Date('2012-03-04T10:20:30').toISOString(),
      updatedAt: new Date('2012-05-06T10:20:30').toISOString(),
    });
    expect(items[1]).toMatchObject({
      name: 'Bank',
      username: '12345',
      password: 'bank-pass',
      urls: ['https://bank.example'],
      folder: 'Internet/Banking',
      notes: '',
      fields: [],
    });
    expect(items[1]?.attachments).toEqual([{ name: 'statement.pdf', bytes: new TextEncoder().encode('%PDF-') }]);
    expect(skipped.map((record) => record.reason)).toEqual([
      'The group "Backup" is KeePass\'s recycle bin: its 1 deleted entry was not imported.',
    ]);
  });

  it('refuses any other DOCTYPE or an entity declaration before parsing', async () => {
    const bomb = '<!DOCTYPE database [<!ENTITY a "aaaa">]><database><group><title>&a;</title></group></database>';
    await expect(keepassxXmlFormat.parse(textFile(bomb, 'x.xml'), {})).rejects.toThrow(ImportFileError);
    await expect(keepassxXmlFormat.parse(textFile('<html></html>', 'x.xml'), {})).rejects.toThrow(/not a KeePassX export/);
  });
});
