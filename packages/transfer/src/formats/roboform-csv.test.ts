import { describe, expect, it } from 'vitest';
import { ownFixture, textFile } from '../../test/fixture-file';
import { ImportFileError } from '../import-format';
import { detectFormat } from './registry';
import { roboformCsvFormat } from './roboform-csv';

describe('RoboForm CSV', () => {
  it('is detected by its header and offered first', () => {
    const file = ownFixture('roboform.csv');
    expect(roboformCsvFormat.detect(file)).toBe(1);
    expect(detectFormat(file)[0]?.format.id).toBe('roboform-csv');
  });

  it('reads a login with its form fields and TOTP, a bookmark and a note; folders lose their leading slash', async () => {
    const { items, skipped } = await roboformCsvFormat.parse(ownFixture('roboform.csv'), {});
    expect(skipped).toEqual([]);
    expect(items).toHaveLength(3);
    expect(items[0]).toMatchObject({
      type: 'login',
      name: 'Bank',
      username: 'kim',
      password: '@p,w"1',
      urls: ['https://bank.example/', 'https://bank.example/login'],
      totp: 'JBSWY3DPEHPK3PXP',
      notes: 'branch 12\nask for Ana',
      folder: 'Business/Banking',
      fields: [
        { label: 'PIN', kind: 'hidden', value: '2468' },
        { label: 'Branch', kind: 'text', value: 'Mitte' },
      ],
    });
    expect(items[1]).toMatchObject({
      type: 'login',
      name: 'News',
      urls: ['https://news.example/'],
      folder: 'Reading',
      fields: [],
    });
    expect(items[2]).toMatchObject({ type: 'note', name: 'Door', notes: '4711', folder: null, fields: [] });
  });

  it('reads an older cell packing several field definitions', async () => {
    const file = textFile(
      'Name,Url,MatchUrl,Login,Pwd,Note,Folder,RfFieldsV2\nShop,https://shop.example,,ana,pw,,,"email,,email,txt,ana@example.org,pin,,pin,pwd,1234"\n',
    );
    const { items } = await roboformCsvFormat.parse(file, {});
    expect(items[0]?.fields).toEqual([
      { label: 'email', kind: 'text', value: 'ana@example.org' },
      { label: 'pin', kind: 'hidden', value: '1234' },
    ]);
  });

  it('refuses a file without its columns', async () => {
    await expect(roboformCsvFormat.parse(textFile('Name,Url\nx,y\n'), {})).rejects.toThrow(ImportFileError);
  });
});
