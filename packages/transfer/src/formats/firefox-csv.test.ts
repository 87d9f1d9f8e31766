import { describe, expect, it } from 'vitest';
import { EXPECTED_LOGINS } from '../../test/expected-logins';
import { ownFixture, textFile } from '../../test/fixture-file';
import { ImportFileError } from '../import-format';
import { firefoxCsvFormat } from './firefox-csv';

const parse = (file: ReturnType<typeof textFile>) => firefoxCsvFormat.parse(file, {});
const HEADER =
  '"url","username","password","httpRealm","formActionOrigin","guid","timeCreated","timeLastUsed","timePasswordChanged"';

describe('Firefox CSV', () => {
  it('yields the 12 credentials with exact passwords (url column holds titles in this fixture); rows without credentials are skipped', async () => {
    const file = ownFixture('twelve-firefox.csv');
    expect(firefoxCsvFormat.detect(file)).toBe(1);
    const result = await parse(file);
    const pairs = (list: readonly { username: string; password: string }[]) =>
      list.map((login) => `${login.username} ${login.password}`).sort();
    expect(pairs(result.items)).toEqual(pairs(EXPECTED_LOGINS));
    expect(result.items.find((item) => item.password.startsWith('E<JOOfU'))).toMatchObject({
      name: 'fediverse.test',
      urls: ['fediverse.test'],
    });
    // A title with a space is no host: the name falls back to the user name.
    expect(result.items.find((item) => item.password.startsWith('q7T@'))?.name).toBe('mira@quill.test');
    expect(result.items.filter((item) => item.urls[0] === 'hosting.test')).toHaveLength(2);
    expect(result.items[0]?.createdAt).toBe('2022-04-15T05:20:00.000Z');
    expect(result.items[0]?.fields).toEqual([]);
    expect(result.skipped.map((record) => record.line)).toEqual([13, 15]);
  });

  it("skips Firefox's own sync account row and reads the login after it (its JSON value holds a stray quote)", async () => {
    const result = await parse(ownFixture('firefox-accounts.csv'));
    expect(result.items.map((item) => [item.name, item.urls[0], item.username, item.password])).toEqual([
      ['harbor.test', 'https://harbor.test', 'kai', 'Lk4-pQ9s'],
    ]);
    expect(result.skipped).toHaveLength(1);
    expect(result.skipped[0]?.reason).toMatch(/chrome:\/\/FirefoxAccounts" is Firefox's own sync account record/);
  });

  it('keeps an HTTP realm and a form address that differs from the login address as fields', async () => {
    const csv = `${HEADER}\n"https://a.example","u","p","Intranet","https://login.other.example","{x}","1612345678900","1612345678900","1700000000000"\n`;
    const [item] = (await parse(textFile(csv))).items;
    expect(item?.fields).toEqual([
      { label: 'HTTP realm', kind: 'text', value: 'Intranet' },
      { label: 'Form address', kind: 'text', value: 'https://login.other.example' },
    ]);
    expect(item?.updatedAt).toBe('2023-11-14T22:13:20.000Z');
  });

  it('refuses a file without the url column', async () => {
    await expect(parse(textFile('"username","password"\n"u","p"\n'))).rejects.toThrow(ImportFileError);
  });
});
