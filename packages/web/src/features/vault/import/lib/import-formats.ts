import type { CsvMapping, CsvPreview, ImportFile, ImportFormatId, ParseResult } from '@lockit/transfer';
import { parseInWorker } from './parse-in-worker';

export type { CsvMapping, CsvPreview };
export type CsvMappingField = keyof CsvMapping;

export interface FormatOption {
  id: ImportFormatId;
  label: string;
}

/** What the import screen needs of @lockit/transfer's registry (formats/registry.ts). */
export interface ImportFormats {
  formats: FormatOption[];
  /** The most likely format from the file's content, or null when none recognises it. */
  detect(file: ImportFile): ImportFormatId | null;
  /** Parses in a worker (parse-in-worker.ts); `mapping` is used by 'csv-mapped'. */
  parse(
    file: ImportFile,
    format: ImportFormatId,
    options: { password?: string; keyFile?: Uint8Array; mapping?: CsvMapping; onProgress?: (fraction: number) => void },
  ): Promise<ParseResult>;
  previewCsv(file: ImportFile): CsvPreview;
}

/**
 * The formats, loaded with the import screen's first file (the parsers and their dependencies
 * stay out of every other page's download). Detection and the CSV preview read a file's first
 * bytes on the page; parsing runs in a worker.
 */
export async function loadImportFormats(): Promise<ImportFormats> {
  const { IMPORT_FORMATS, detectFormat, previewCsv } = await import('@lockit/transfer');
  return {
    formats: IMPORT_FORMATS.map(({ id, label }) => ({ id, label })),
    detect: (file) => detectFormat(file)[0]?.format.id ?? null,
    parse: (file, format, { password, keyFile, mapping, onProgress }) =>
      parseInWorker({ file, format, password, keyFile, mapping }, onProgress ?? (() => {})),
    previewCsv,
  };
}
