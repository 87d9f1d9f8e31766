import { describe, expect, it } from 'vitest';
import { ownFixture, textFile } from '../../test/fixture-file';
import { ImportFileError } from '../import-format';
import { dashlaneCsvFormat } from './dashlane-csv';

describe('Dashlane credentials.csv', () => {
  it("reads Bitwarden's Dashlane spec file: TOTP seed, note and category", async () => {
    const file = ownFixture('dashlane-bitwarden-credentials.csv');
    expect(dashlaneCsvFormat.detect(file)).toBe(1);
    const { items } = await dashlaneCsvFormat.parse(file, {});
    expect(items).toEqual([
      expect.objectContaining({
        name: 'example.com',
        username: 'jdoe',
        password: 'somePassword',
        urls: ['https://www.example.com'],
        notes: 'some note for example.com',
        totp: 'someTOTPSeed',
        tags: ['Entertainment'],
        fields: [],
      }),
    ]);
  });

  it('keeps the second and third user names as fields, reads otpUrl, and skips a row with only a title', async () => {
    const { items, skipped } = await dashlaneCsvFormat.parse(ownFixture('dashlane-own.csv'), {});
    expect(items[0]).toMatchObject({
      password: 'p,w"1',
      notes: 'notes\ntwo lines',
      totp: 'otpauth://totp/Example?secret=JBSWY3DPEHPK3PXP',
      fields: [
        { label: 'username2', kind: 'text', value: 'ana' },
        { label: 'username3', kind: 'text', value: 'ana-alt' },
      ],
    });
    expect(skipped).toEqual([{ line: 4, reason: 'Line 4: "Only title" has nothing in it but its name.' }]);
  });

  it('refuses a file without its columns', async () => {
    await expect(dashlaneCsvFormat.parse(textFile('username,url\nx,y\n'), {})).rejects.toThrow(ImportFileError);
  });
});
