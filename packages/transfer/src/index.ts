export * from './transfer-item';
export * from './import-format';
export * from './backup';
export * from './export';
export {
  readCsv,
  findColumn,
  cellOf,
  isBlankRecord,
  extraValues,
  type CsvTable,
  type CsvRecord,
  type ReadCsvOptions,
} from './csv/read-csv';
export { CSV_LIMITS } from './csv/csv-bounds';
export { decodeText, MAX_IMPORT_FILE_BYTES } from './csv/decode-text';
export { lockitBackupFormat } from './formats/lockit-backup';
export { peekCsvHeader, hasColumns } from './csv/peek-header';
export { IMPORT_FORMATS, detectFormat, parseImport, importFormatById, type FormatCandidate } from './formats/registry';
export { previewCsv, parseMappedCsv, suggestMapping, type CsvMapping, type CsvPreview } from './formats/csv-mapped';
export { BITWARDEN_KDF_LIMITS } from './formats/bitwarden-protected';
export { KDBX_KEY_FILE_NOTE, KDBX_LIMITS } from './formats/kdbx';
export { ONEPUX_LIMITS } from './formats/onepassword-1pux-zip';
