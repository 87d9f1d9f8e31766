export type { BinaryRequest, BinaryResponse, BinaryTransport } from './binary-transport';
export type { AttachmentPlatform, AttachmentSource } from './attachment-platform';
export { openListedAttachment, type DamagedAttachment, type ListedAttachment, type OpenedAttachment } from './opened-attachment';
export {
  listAttachments,
  uploadAttachment,
  downloadAttachment,
  renameAttachment,
  deleteAttachment,
  sendBinary,
  type AttachmentList,
  type ProgressListener,
  type UploadOptions,
} from './attachment-calls';
export {
  attachmentIdOf,
  itemFilesOf,
  refOf,
  refsOfServed,
  MISSING_FILE_PROBLEM,
  OTHER_SIZE_PROBLEM,
  type ItemFile,
  type ItemFiles,
  type MissingAttachment,
} from './item-files';
export { filesInHistory } from './history-files';
