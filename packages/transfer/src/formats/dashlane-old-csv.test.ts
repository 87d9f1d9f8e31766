import { describe, expect, it } from 'vitest';
import { ownFixture, textFile } from '../../test/fixture-file';
import { dashlaneOldCsvFormat } from './dashlane-old-csv';
import { detectFormat } from './registry';

describe("Dashlane's older header-less CSV", () => {
  it('is guessed from its first row, above "other CSV", and not from a file with a header', () => {
    const ids = detectFormat(ownFixture('dashlane-old.csv')).map((candidate) => candidate.format.id);
    expect(ids[0]).toBe('dashlane-old-csv');
    expect(dashlaneOldCsvFormat.detect(textFile('title,url,login,password,note\nA,a.example,u,p,n\n'))).toBe(0);
    expect(dashlaneOldCsvFormat.detect(ownFixture('dashlane-payments.csv'))).toBe(0);
  });

  it('reads every row from the first line: title, website, login, password, note, and values past them', async () => {
    const { items, skipped } = await dashlaneOldCsvFormat.parse(ownFixture('dashlane-old.csv'), {});
    expect(skipped).toEqual([]);
    expect(items).toEqual([
      expect.objectContaining({
        type: 'login',
        name: 'Forum',
        urls: ['forum.example'],
        username: 'kim',
        password: 'p,w"1',
        notes: 'first line\nsecond line',
        fields: [],
      }),
      expect.objectContaining({
        name: 'Bank',
        urls: ['https://bank.example'],
        username: '12345',
        password: 'bank-pass',
        fields: [{ label: 'Column 6', kind: 'text', value: 'extra value' }],
      }),
      expect.objectContaining({ type: 'note', name: 'Door code', notes: '4711' }),
    ]);
  });

  it("gives the file's own line numbers for an empty row", async () => {
    const { skipped } = await dashlaneOldCsvFormat.parse(
      textFile('"A","a.example","u","p",""\n,,,,\n"B","b.example","u","p",""\n'),
      {},
    );
    expect(skipped).toEqual([{ line: 2, reason: 'Line 2: the row is empty.' }]);
  });

  it('does not claim a Chrome export', () => {
    expect(dashlaneOldCsvFormat.detect(ownFixture('twelve-chrome.csv'))).toBe(0);
  });
});
