export {
  toBitwardenExport,
  toBitwardenJson,
  folderPaths,
  TAGS_FIELD_LABEL,
  type BitwardenExport,
  type BitwardenItem,
  type BitwardenJsonOptions,
} from './bitwarden-json';
export { toBitwardenCsv, toGenericCsv, BITWARDEN_CSV_HEADER, GENERIC_CSV_HEADER, type BitwardenCsvResult } from './csv-exports';
