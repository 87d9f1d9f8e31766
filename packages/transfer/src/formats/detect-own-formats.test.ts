import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ownFixture, sharedFixture, SHARED_FIXTURE_DIR } from '../../test/fixture-file';
import type { ImportFormat } from '../import-format';
import { chromeCsvFormat } from './chrome-csv';
import { dashlaneCsvFormat } from './dashlane-csv';
import { firefoxCsvFormat } from './firefox-csv';
import { kdbxFormat } from './kdbx';
import { keepassXmlFormat } from './keepass-xml';
import { keepassxcCsvFormat } from './keepassxc-csv';
import { lastpassCsvFormat } from './lastpass-csv';
import { onePasswordPuxFormat } from './onepassword-1pux';
import { onePasswordCsvFormat } from './onepassword-csv';
import { safariCsvFormat } from './safari-csv';

const FORMATS: ImportFormat[] = [
  chromeCsvFormat,
  firefoxCsvFormat,
  safariCsvFormat,
  keepassxcCsvFormat,
  lastpassCsvFormat,
  onePasswordCsvFormat,
  dashlaneCsvFormat,
  keepassXmlFormat,
  kdbxFormat,
  onePasswordPuxFormat,
];

/** Which of these formats owns each file; null: none of them (Bitwarden's, Proton's...). */
const SHARED_OWNER: Record<string, string | null> = {
  '1password.csv': '1password-csv',
  '1password7-windows-bitwarden.csv': '1password-csv',
  'bitwarden-sdk.csv': null,
  'bitwarden-sdk.json': null,
  'bitwarden.csv': null,
  'bitwarden.json': null,
  'chrome-bitwarden-note.csv': 'chrome-csv',
  'chrome.csv': 'chrome-csv',
  'firefox-bitwarden-accounts.csv': 'firefox-csv',
  'firefox.csv': 'firefox-csv',
  'keepassxc.csv': 'keepassxc-csv',
  'lastpass-proton.csv': 'lastpass-csv',
  'lastpass.csv': 'lastpass-csv',
};

const OWN_OWNER: Record<string, string | null> = {
  'chrome-bom-crlf.csv': 'chrome-csv',
  'dashlane-bitwarden-credentials.csv': 'dashlane-csv',
  'dashlane-own.csv': 'dashlane-csv',
  'keepass2-bitwarden.xml': 'keepass-xml',
  'keepassxc-own.xml': 'keepass-xml',
  'keepassxc-2.7.csv': 'keepassxc-csv',
  'lastpass-own.csv': 'lastpass-csv',
  'onepassword8-own.csv': '1password-csv',
  'safari-bitwarden.csv': 'safari-csv',
  'safari-old-bitwarden.csv': 'safari-csv',
  'proton-pass.csv': null,
  'generic-semicolon.csv': null,
  'bitwarden-bom-crlf.csv': null,
};

const claimants = (file: ReturnType<typeof sharedFixture>) =>
  FORMATS.filter((format) => format.detect(file) > 0).map((format) => format.id);

describe('detection by exact header or signature: each file is claimed by its own format and no other', () => {
  it('covers every shared fixture', () => {
    const files = readdirSync(SHARED_FIXTURE_DIR).filter((name) => name !== 'SOURCES.md');
    expect(files.sort()).toEqual(Object.keys(SHARED_OWNER).sort());
  });

  for (const [name, owner] of Object.entries(SHARED_OWNER)) {
    it(`shared ${name}: ${owner ?? 'none of these formats'}`, () => {
      expect(claimants(sharedFixture(name))).toEqual(owner === null ? [] : [owner]);
    });
  }

  for (const [name, owner] of Object.entries(OWN_OWNER)) {
    it(`own ${name}: ${owner ?? 'none of these formats'}`, () => {
      expect(claimants(ownFixture(name))).toEqual(owner === null ? [] : [owner]);
    });
  }
});
