import { describe, expect, it } from 'vitest';
import { ownFixture, textFile } from '../../test/fixture-file';
import { ImportFileError } from '../import-format';
import { safariCsvFormat } from './safari-csv';

describe('Safari / Apple Passwords CSV', () => {
  it("reads Bitwarden's Safari spec file: multi-line notes and an otpauth TOTP", async () => {
    const file = ownFixture('safari-bitwarden.csv');
    expect(safariCsvFormat.detect(file)).toBe(1);
    const { items } = await safariCsvFormat.parse(file, {});
    expect(items).toEqual([
      expect.objectContaining({
        type: 'login',
        name: 'example.com (example_user)',
        urls: ['https://example.com'],
        username: 'example_user',
        password: 'example_p@ssword',
        notes: 'Example note\nMore notes on new line',
        totp: 'otpauth://totp/test?secret=examplesecret',
      }),
    ]);
  });

  it("reads the older four-column export (Bitwarden's old Safari spec file)", async () => {
    const file = ownFixture('safari-old-bitwarden.csv');
    expect(safariCsvFormat.detect(file)).toBe(1);
    const { items } = await safariCsvFormat.parse(file, {});
    expect(items.map((item) => [item.name, item.urls[0], item.username, item.password])).toEqual([
      ['example.com (example_user)', 'https://example.com', 'example_user', 'example_p@ssword'],
    ]);
  });

  it('does not claim Chrome or 1Password files, and refuses a file without its columns', async () => {
    expect(safariCsvFormat.detect(ownFixture('twelve-chrome.csv'))).toBe(0);
    expect(safariCsvFormat.detect(ownFixture('twelve-1password.csv'))).toBe(0);
    await expect(safariCsvFormat.parse(textFile('Title,Notes\nx,y\n'), {})).rejects.toThrow(ImportFileError);
  });
});
