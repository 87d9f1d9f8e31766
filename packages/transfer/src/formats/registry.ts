import {
  ImportFileError,
  type ImportFile,
  type ImportFormat,
  type ImportFormatId,
  type ParseOptions,
  type ParseResult,
} from '../import-format';
import { bitwardenCsvFormat } from './bitwarden-csv';
import { bitwardenJsonFormat } from './bitwarden-json';
import { chromeCsvFormat } from './chrome-csv';
import { csvMappedFormat } from './csv-mapped';
import { dashlaneCsvFormat } from './dashlane-csv';
import {
  dashlaneIdsCsvFormat,
  dashlaneNotesCsvFormat,
  dashlanePaymentsCsvFormat,
  dashlanePersonalInfoCsvFormat,
} from './dashlane-more-csv';
import { dashlaneOldCsvFormat } from './dashlane-old-csv';
import { enpassJsonFormat } from './enpass-json';
import { firefoxCsvFormat } from './firefox-csv';
import { kdbxFormat } from './kdbx';
import { keepassXmlFormat } from './keepass-xml';
import { keeperJsonFormat } from './keeper-json';
import { keepassxcCsvFormat } from './keepassxc-csv';
import { keepassxXmlFormat } from './keepassx-xml';
import { lastpassCsvFormat } from './lastpass-csv';
import { lockitBackupFormat } from './lockit-backup';
import { nordpassCsvFormat } from './nordpass-csv';
import { onePasswordPuxFormat } from './onepassword-1pux';
import { onePasswordCsvFormat } from './onepassword-csv';
import { onePasswordPifFormat } from './onepassword-1pif';
import { protonCsvFormat } from './proton-csv';
import { protonJsonFormat } from './proton-json';
import { roboformCsvFormat } from './roboform-csv';
import { safariCsvFormat } from './safari-csv';

/**
 * Every format Lockit imports, in the order the UI lists them. Detection asks each one how
 * sure it is from the content (never the file name), so a renamed file is still recognised
 * and the person can override the guess.
 */
export const IMPORT_FORMATS: readonly ImportFormat[] = [
  lockitBackupFormat,
  bitwardenJsonFormat,
  bitwardenCsvFormat,
  keepassXmlFormat,
  kdbxFormat,
  onePasswordPuxFormat,
  protonCsvFormat,
  protonJsonFormat,
  chromeCsvFormat,
  firefoxCsvFormat,
  safariCsvFormat,
  keepassxcCsvFormat,
  lastpassCsvFormat,
  onePasswordCsvFormat,
  dashlaneCsvFormat,
  dashlanePaymentsCsvFormat,
  dashlaneIdsCsvFormat,
  dashlanePersonalInfoCsvFormat,
  dashlaneNotesCsvFormat,
  dashlaneOldCsvFormat,
  nordpassCsvFormat,
  enpassJsonFormat,
  keeperJsonFormat,
  onePasswordPifFormat,
  keepassxXmlFormat,
  roboformCsvFormat,
  csvMappedFormat,
];

export interface FormatCandidate {
  format: ImportFormat;
  /** 0 < confidence <= 1, from the format's own detect(). */
  confidence: number;
}

/**
 * The formats that recognise the file, most confident first (ties keep IMPORT_FORMATS'
 * order). Empty when none does. A detector that throws on odd bytes counts as "not mine".
 */
export function detectFormat(file: ImportFile): FormatCandidate[] {
  const candidates: FormatCandidate[] = [];
  for (const format of IMPORT_FORMATS) {
    let confidence = 0;
    try {
      confidence = format.detect(file);
    } catch {
      confidence = 0;
    }
    if (confidence > 0) candidates.push({ format, confidence: Math.min(confidence, 1) });
  }
  return candidates.sort((a, b) => b.confidence - a.confidence);
}

export function importFormatById(id: ImportFormatId): ImportFormat | undefined {
  return IMPORT_FORMATS.find((format) => format.id === id);
}

/** Parses the file as the given format (detected or chosen by the person). */
export async function parseImport(file: ImportFile, formatId: ImportFormatId, options: ParseOptions = {}): Promise<ParseResult> {
  const format = importFormatById(formatId);
  if (!format) throw new ImportFileError(`Lockit cannot read this format yet (${formatId}).`);
  return format.parse(file, options);
}
