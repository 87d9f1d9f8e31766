import { Gunzip } from 'fflate';
import { fromBase64 } from '../backup/base64';
import { ImportFileError } from '../import-format';

/**
 * What the attached files of one import may take in memory once decoded and inflated. They are
 * held whole until uploaded (the import file itself is at most 200 MB), so a compressed
 * attachment (KeePass XML's gzip, a deflated .1pux entry) could otherwise inflate without bound.
 */
export const ATTACHMENT_IMPORT_LIMITS = {
  totalBytes: 512 * 1024 * 1024,
} as const;

/** Slices pushed into an inflater: one push yields at most ~16 MB before the budget is checked. */
const CHUNK = 16 * 1024;

/**
 * The bytes every attachment of one import may still take. Security invariant: inflated output
 * is counted as it is produced, never trusted from a declared size; past the budget the import
 * stops with an ImportFileError (a ZIP or gzip bomb, or a file no browser tab can hold).
 */
export class AttachmentBudget {
  private left: number;

  constructor(private readonly limit: number = ATTACHMENT_IMPORT_LIMITS.totalBytes) {
    this.left = limit;
  }

  /** Counts `bytes` more; throws once the import's files would pass the limit. */
  take(bytes: number): void {
    this.left -= bytes;
    if (this.left < 0) {
      throw new ImportFileError(
        `The attached files inflate to more than ${Math.round(this.limit / 1024 / 1024)} MB: Lockit does not import that much at once (or the file is a compression bomb). Export without the largest files and attach them by hand.`,
      );
    }
  }
}

/** Standard base64 as KeePass writes it, whitespace allowed; null when it is not base64. */
export function decodeBase64(text: string): Uint8Array | null {
  try {
    return fromBase64(text.replace(/\s+/g, ''));
  } catch {
    return null;
  }
}

/** A gzip stream inflated under `budget`; null when it is not valid gzip. */
export function gunzipWithin(bytes: Uint8Array, budget: AttachmentBudget): Uint8Array | null {
  const chunks: Uint8Array[] = [];
  let total = 0;
  let finished = false;
  const gunzip = new Gunzip((chunk, final) => {
    budget.take(chunk.length);
    chunks.push(chunk);
    total += chunk.length;
    if (final) finished = true;
  });
  try {
    for (let offset = 0; offset < bytes.length; offset += CHUNK) {
      const end = Math.min(offset + CHUNK, bytes.length);
      gunzip.push(bytes.subarray(offset, end), end === bytes.length);
    }
  } catch (error) {
    if (error instanceof ImportFileError) throw error;
    return null;
  }
  return finished ? joinChunks(chunks, total) : null;
}

export function joinChunks(chunks: readonly Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}
