export {
  useAccountDocument,
  accountDocumentQueryKey,
  DAMAGED_DOCUMENT_MESSAGE,
  type AccountDocument,
  type AccountDocumentStatus,
  type AccountDocumentUpdate,
} from './use-account-document';
export { sealAccountDocument, openAccountDocument } from './seal-account-document';
