import { utf8Encode } from '../encoding';

/** The item (entry) a file belongs to and the file's own id: both bound into every seal of it. */
export interface AttachmentIds {
  itemId: string;
  fileId: string;
}

/** Ids are lower-case UUIDs made by the client; anything else could blur the `|`-separated AAD. */
const ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function checkAttachmentIds(ids: AttachmentIds): AttachmentIds {
  if (!ID_PATTERN.test(ids.itemId) || !ID_PATTERN.test(ids.fileId)) {
    throw new RangeError('An attachment is named by a lower-case UUID for its item and one for its file.');
  }
  return ids;
}

/** `lockit/v1/attachment-<purpose>|<item id>|<file id>` followed by `extra` parts, if any. */
export function attachmentAad(purpose: 'key' | 'meta' | 'chunk', ids: AttachmentIds, ...extra: string[]): Uint8Array {
  const { itemId, fileId } = checkAttachmentIds(ids);
  return utf8Encode([`lockit/v1/attachment-${purpose}`, itemId, fileId, ...extra].join('|'));
}
