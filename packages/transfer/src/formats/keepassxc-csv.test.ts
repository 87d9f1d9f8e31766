import { describe, expect, it } from 'vitest';
import { EXPECTED_LOGINS, loginQuadruples } from '../../test/expected-logins';
import { ownFixture, textFile } from '../../test/fixture-file';
import { ImportFileError } from '../import-format';
import { keepassxcCsvFormat } from './keepassxc-csv';

describe('KeePassXC CSV', () => {
  it('yields the 12 expected logins with exact passwords and folders below Root; the note stays a note', async () => {
    const file = ownFixture('twelve-keepassxc.csv');
    expect(keepassxcCsvFormat.detect(file)).toBe(1);
    const result = await keepassxcCsvFormat.parse(file, {});
    expect(loginQuadruples(result.items)).toEqual(EXPECTED_LOGINS);
    expect(result.items.find((item) => item.name === 'mira@pinemail.test')?.folder).toBe('Emails/WS');
    expect(result.items.find((item) => item.name === 'note')).toMatchObject({ type: 'note', folder: 'CornerCases' });
    expect(result.items.find((item) => item.name === 'note')?.notes).toContain('\n');
    expect(result.skipped.map((record) => record.reason)).toEqual([
      expect.stringContaining('"empty entry" has nothing in it but its name'),
    ]);
  });

  it('reads the 10-column export of KeePassXC 2.6+: TOTP, dates, nested groups; the icon number is not kept', async () => {
    const file = ownFixture('keepassxc-2.7.csv');
    expect(keepassxcCsvFormat.detect(file)).toBe(1);
    const { items } = await keepassxcCsvFormat.parse(file, {});
    expect(items.map((item) => [item.name, item.folder, item.type])).toEqual([
      ['Top level', null, 'login'],
      ['Bank', 'Work/Banking', 'login'],
      ['Door code', 'Work', 'note'],
    ]);
    expect(items[1]).toMatchObject({
      password: 'p"w,2',
      notes: 'multi\nline',
      totp: 'otpauth://totp/Bank?secret=JBSWY3DPEHPK3PXP&period=30&digits=6',
      updatedAt: '2024-02-02T00:00:00.000Z',
      createdAt: '2023-02-02T00:00:00.000Z',
      fields: [],
    });
  });

  it('refuses a file without the Group column', async () => {
    await expect(
      keepassxcCsvFormat.parse(textFile('"Title","Username","Password","URL"\n"a","b","c","d"\n'), {}),
    ).rejects.toThrow(ImportFileError);
  });
});
