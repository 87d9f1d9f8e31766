import { describe, expect, it } from 'vitest';
import { ownFixture } from '../../test/fixture-file';
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
const OWN_OWNER: Record<string, string | null> = {
  'twelve-1password.csv': '1password-csv',
  'onepassword7-windows.csv': '1password-csv',
  'bitwarden-reprompt.csv': null,
  'bitwarden-sdk-shape.json': null,
  'twelve-bitwarden.csv': null,
  'twelve-bitwarden.json': null,
  'chrome-note-crlf.csv': 'chrome-csv',
  'twelve-chrome.csv': 'chrome-csv',
  'firefox-accounts.csv': 'firefox-csv',
  'twelve-firefox.csv': 'firefox-csv',
  'twelve-keepassxc.csv': 'keepassxc-csv',
  'lastpass-secure-notes.csv': 'lastpass-csv',
  'twelve-lastpass.csv': 'lastpass-csv',
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

const claimants = (file: ReturnType<typeof ownFixture>) =>
  FORMATS.filter((format) => format.detect(file) > 0).map((format) => format.id);

describe('detection by exact header or signature: each file is claimed by its own format and no other', () => {
  for (const [name, owner] of Object.entries(OWN_OWNER)) {
    it(`own ${name}: ${owner ?? 'none of these formats'}`, () => {
      expect(claimants(ownFixture(name))).toEqual(owner === null ? [] : [owner]);
    });
  }
});
