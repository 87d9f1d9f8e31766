import type { CsvMapping, ImportFile, ImportFormatId, ParseResult } from '@lockit/transfer';

/** A file to parse in the import worker: a known format, or any other CSV through its mapping. */
export interface ParseRequest {
  file: ImportFile;
  format: ImportFormatId;
  password?: string;
  /** A KeePass key file's bytes, for a KDBX that needs one. */
  keyFile?: Uint8Array;
  mapping?: CsvMapping;
}

/** The result, or the error as data (classes do not cross postMessage). */
export type ParseAnswer =
  | { kind: 'done'; result: ParseResult }
  | { kind: 'file-error'; message: string; line: number | null }
  | { kind: 'password-error'; reason: 'missing' | 'wrong'; message: string }
  | { kind: 'failed'; message: string };
