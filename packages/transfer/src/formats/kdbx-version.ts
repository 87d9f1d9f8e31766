import { ImportFileError } from '../import-format';

/** Where the outer header keeps the file version: minor then major, each a little-endian UInt16. */
const VERSION_AT = 8;

/**
 * A copy of the database for kdbxweb to read: the file as it is for KDBX 3 and 4, and for KDBX 2
 * the same bytes with a version field saying 3.0. A version neither kdbxweb nor KeePassXC reads
 * is refused here, naming the version and the way to a file Lockit reads.
 *
 * KDBX 2 is what KeePass 2.09 to 2.14 wrote (2.00 to 2.04; 2.15 moved to 3.00, 2.20 to 3.01).
 * KeePassXC reads 2.x, 3.0 and 3.1 with one reader (Kdbx3Reader, FILE_VERSION_MIN 0x00020000):
 * the same header fields, key derivation (AES-KDF), decryption of hashed blocks, gzip and XML
 * reader. The one thing of 3.01 that concerns the header is Meta's HeaderHash, the SHA-256 of
 * the header bytes, which KeePassXC checks only where the XML has one; a 2.x file has none.
 * kdbxweb 2.1.1 reads 3.0 and 3.1 with one path that checks HeaderHash the same way, but its
 * header parser refuses a major version below 3 (a constant, no setting). The version field
 * enters no key, cipher or block hash, and a 2.x file has no HeaderHash to bind it, so the copy
 * labelled 3.0 decrypts and checks exactly as the file would. A 2.x file carrying a HeaderHash
 * all the same (a 3.x file relabelled) is compared with the changed header, and kdbxweb refuses
 * it as damaged.
 */
export function kdbxwebCopy(bytes: Uint8Array): ArrayBuffer {
  const copy = bytes.slice();
  if (copy.length < VERSION_AT + 4) return copy.buffer;
  const view = new DataView(copy.buffer);
  const minor = view.getUint16(VERSION_AT, true);
  const major = view.getUint16(VERSION_AT + 2, true);
  if (major === 2) {
    view.setUint16(VERSION_AT, 0, true);
    view.setUint16(VERSION_AT + 2, 3, true);
  } else if (major < 2) {
    throw new ImportFileError(
      `This is a KDBX ${major}.${String(minor).padStart(2, '0')} database (KeePass 2.07 or 2.08), a version neither Lockit nor KeePassXC reads. Open it in KeePass 2 and save it (that writes KDBX 4), or export it as KeePass XML, and import that file.`,
    );
  } else if (major > 4) {
    throw new ImportFileError(
      `This is a KDBX ${major} database, newer than the KDBX 2, 3 and 4 Lockit reads. Export it from KeePass or KeePassXC as KeePass XML and import that file.`,
    );
  }
  return copy.buffer;
}
