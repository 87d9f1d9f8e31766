import type { TransferItem } from './transfer-item';

/** Every format Lockit reads. `csv-mapped` is any other CSV, through a column mapping. */
export const IMPORT_FORMAT_IDS = [
  'lockit-backup',
  'bitwarden-json',
  'bitwarden-csv',
  'chrome-csv',
  'firefox-csv',
  'safari-csv',
  'keepassxc-csv',
  'keepass-xml',
  'kdbx',
  'lastpass-csv',
  '1password-csv',
  '1pux',
  'proton-csv',
  'proton-json',
  'dashlane-csv',
  'nordpass-csv',
  'enpass-json',
  'keeper-json',
  '1pif',
  'keepassx-xml',
  'roboform-csv',
  'dashlane-payments-csv',
  'dashlane-ids-csv',
  'dashlane-personal-info-csv',
  'dashlane-notes-csv',
  'dashlane-old-csv',
  'csv-mapped',
] as const;
export type ImportFormatId = (typeof IMPORT_FORMAT_IDS)[number];

/** The file as picked: its name and bytes (text formats decode them as UTF-8, a BOM dropped). */
export interface ImportFile {
  name: string;
  bytes: Uint8Array;
}

export interface ParseOptions {
  /** For password-protected files (Bitwarden's encrypted JSON, KDBX, a Lockit backup). */
  password?: string;
  /** A KeePass key file's bytes, for a KDBX that needs one beside its password. */
  keyFile?: Uint8Array;
  /** Progress from 0 to 1 for long files; called at most every few milliseconds. */
  onProgress?: (fraction: number) => void;
}

/** A row or record the importer did not turn into an item, and why, in words. */
export interface SkippedRecord {
  /** 1-based line (CSV: the record's first line) or record number; null when the format has neither. */
  line: number | null;
  reason: string;
}

export interface ParseResult {
  format: ImportFormatId;
  items: TransferItem[];
  skipped: SkippedRecord[];
  /**
   * Records that were imported but may be wrong (a CSV row whose values do not line up with
   * the header), each with its line and what to check: the preview shows them before saving.
   */
  warnings?: SkippedRecord[];
}

export interface ImportFormat {
  id: ImportFormatId;
  /** As the person knows it: "Bitwarden (JSON)". */
  label: string;
  /** How sure this format is that the file is its own, from the content (0 = not at all, 1 = certain). */
  detect(file: ImportFile): number;
  parse(file: ImportFile, options: ParseOptions): Promise<ParseResult>;
}

/**
 * A file that cannot be read as the chosen format: one sentence saying what is wrong and
 * where, e.g. "Line 14: the row has 3 columns; the header has 9." Nothing is imported.
 */
export class ImportFileError extends Error {
  override readonly name = 'ImportFileError';
  constructor(
    message: string,
    readonly line: number | null = null,
  ) {
    super(message);
  }
}

/**
 * The file is protected and needs (another) password; the UI asks and parses again. A format
 * may say more than the default sentence (a KDBX may need a key file too).
 */
export class ImportPasswordError extends Error {
  override readonly name = 'ImportPasswordError';
  constructor(
    readonly reason: 'missing' | 'wrong',
    message?: string,
  ) {
    super(message ?? (reason === 'missing' ? 'This file is protected by a password.' : 'That password does not open this file.'));
  }
}
