import { ImportFileError, type ImportFile } from '../import-format';

/** No import reads a file past this size: 50 MB holds far more than any real vault export. */
export const MAX_IMPORT_FILE_BYTES = 50 * 1024 * 1024;

/**
 * The file's bytes as text: UTF-8, a leading BOM dropped. Refuses, with a sentence naming the
 * line, a file over MAX_IMPORT_FILE_BYTES, a UTF-16 file and bytes that are not valid UTF-8
 * (decoding them leniently would silently turn a password's characters into U+FFFD).
 */
export function decodeText(file: ImportFile): string {
  const { bytes } = file;
  if (bytes.length > MAX_IMPORT_FILE_BYTES) {
    throw new ImportFileError(
      `The file is ${megabytes(bytes.length)} MB; Lockit imports files of up to ${megabytes(MAX_IMPORT_FILE_BYTES)} MB.`,
    );
  }
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    throw new ImportFileError('The file is saved as UTF-16; export it again as UTF-8 (or save it as UTF-8) and import that.');
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const offset = firstInvalidUtf8Offset(bytes);
    const line = lineOfOffset(bytes, offset);
    throw new ImportFileError(
      `Line ${line}: the file is not valid UTF-8 text (byte ${offset + 1}); export it again as UTF-8 and import that.`,
      line,
    );
  }
}

function megabytes(size: number): string {
  return (size / (1024 * 1024)).toFixed(size % (1024 * 1024) === 0 ? 0 : 1);
}

/** 1-based line of a byte offset; CRLF, LF and a lone CR each end one line. */
function lineOfOffset(bytes: Uint8Array, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) {
    if (bytes[i] === 0x0a || (bytes[i] === 0x0d && bytes[i + 1] !== 0x0a)) line++;
  }
  return line;
}

/** Offset of the first byte that starts an invalid UTF-8 sequence (only called once decoding failed). */
export function firstInvalidUtf8Offset(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) [need, min] = [1, 0x80];
    else if (b >= 0xe0 && b <= 0xef) [need, min] = [2, 0x800];
    else if (b >= 0xf0 && b <= 0xf4) [need, min] = [3, 0x10000];
    else return i;
    let code = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const next = bytes[i + k];
      if (next === undefined || (next & 0xc0) !== 0x80) return i;
      code = (code << 6) | (next & 0x3f);
    }
    // Overlong forms, UTF-16 surrogates and code points past U+10FFFF are invalid too.
    if (code < min || (code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff) return i;
    i += need + 1;
  }
  return bytes.length;
}
