export { ShareOpenError, type ShareOpenFailure } from './share-errors';
export { SHARE_TEXT_MAX_CHARS, type ShareContent, type SharedItem, type SharedFile } from './share-content';
export { SHARE_LINK_KEY_BYTES, checkShareId, decodeShareLinkKey } from './share-key';
export { sealShare, sealShareKeyed, openShare, openShareKeyed, type SealedShare } from './share-seal';
export { sealSharedFileStream, openSharedFileStream } from './share-file';
export { sealShareLabel, openShareLabel, SHARE_LABEL_TITLE_MAX_CHARS, type ShareLabel } from './share-label';
