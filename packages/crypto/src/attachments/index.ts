export { AttachmentDecryptionError, type AttachmentFailureReason } from './attachment-errors';
export { checkAttachmentIds, type AttachmentIds } from './attachment-ids';
export { newAttachmentKey, unwrapAttachmentKey, rewrapAttachmentKey, type NewAttachmentKey } from './attachment-key';
export {
  sealAttachmentMetadata,
  openAttachmentMetadata,
  attachmentMetadataProblem,
  MAX_ATTACHMENT_NAME_LENGTH,
  type AttachmentMetadata,
} from './attachment-metadata';
export {
  ATTACHMENT_CHUNK_BYTES,
  ATTACHMENT_CHUNK_OVERHEAD,
  SEALED_CHUNK_BYTES,
  attachmentChunkCount,
  plainAttachmentSize,
  sealedAttachmentSize,
  sealAttachmentChunk,
  openAttachmentChunk,
  sealAttachmentStream,
  openAttachmentStream,
  sealChunkStream,
  openChunkStream,
  type ChunkBinding,
} from './attachment-chunks';
