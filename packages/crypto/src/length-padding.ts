/**
 * Length hiding for format v2: before encryption a plaintext is padded to a size bucket
 * (ISO/IEC 7816-4 padding: one 0x80 byte, then zero bytes), so a ciphertext's length tells
 * the server which bucket the plaintext is in, not its length.
 */

/** Up to this size buckets are multiples of 32 bytes; beyond it they grow by about x1.5. */
const FINE_BUCKET_LIMIT = 256;
const FINE_BUCKET_STEP = 32;
/** 0x80 marks where the plaintext ends; only zero bytes may follow it. */
const PAD_MARKER = 0x80;

/**
 * The padded size (bytes) of a plaintext of `length` bytes: the smallest bucket that holds
 * the plaintext plus the 0x80 marker. Buckets are 32, 64, ..., 256 (every multiple of 32),
 * then 384, 512, 768, 1024, 1536, 2048, 3072, ... (2^k and 1.5 x 2^k).
 *
 * What it leaks (security invariant): the server sees exactly `paddedLength(length)`, so it
 * learns which bucket a plaintext's UTF-8 length falls in: a length within 32 bytes up to
 * 255 bytes (so every password, user name and service name of up to 31 bytes looks alike),
 * and within a factor of 1.5 above that (a 600-byte note looks like any of 512 to 767 bytes).
 * It never learns more than that, and it still learns that much: a bucket, not nothing.
 */
export function paddedLength(length: number): number {
  if (!Number.isSafeInteger(length) || length < 0) throw new RangeError('A plaintext length is a whole number of bytes.');
  const needed = length + 1;
  if (needed <= FINE_BUCKET_LIMIT) return Math.ceil(needed / FINE_BUCKET_STEP) * FINE_BUCKET_STEP;
  let power = FINE_BUCKET_LIMIT;
  for (;;) {
    if (needed <= power) return power;
    if (needed <= power + power / 2) return power + power / 2;
    power *= 2;
  }
}

/** Whether `size` is one of the buckets `paddedLength` answers (the only sizes v2 plaintexts have). */
export function isPaddedLength(size: number): boolean {
  return Number.isSafeInteger(size) && size > 0 && paddedLength(size - 1) === size;
}

/** `plaintext`, then 0x80, then zero bytes up to `paddedLength(plaintext.length)`. */
export function padPlaintext(plaintext: Uint8Array): Uint8Array {
  const padded = new Uint8Array(paddedLength(plaintext.length));
  padded.set(plaintext);
  padded[plaintext.length] = PAD_MARKER;
  return padded;
}

/**
 * The plaintext inside `padded`, or null when the padding is not exactly what padPlaintext
 * writes: the size must be a bucket, the last non-zero byte must be 0x80, and the bucket must
 * be the smallest for what precedes it (no over-long padding). Strictness means one
 * plaintext has one padded form. Callers run this only on authenticated data (after the GCM
 * tag verified), so its answer is no oracle for an attacker without the key.
 */
export function unpadPlaintext(padded: Uint8Array): Uint8Array | null {
  if (!isPaddedLength(padded.length)) return null;
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (end < 0 || padded[end] !== PAD_MARKER) return null;
  if (paddedLength(end) !== padded.length) return null;
  return padded.slice(0, end);
}
