/**
 * Unpadded base64url (RFC 4648 section 5) and UTF-8, written out so the same code runs in
 * browsers, Web Workers and Node without Buffer or atob.
 *
 * Decoding is strict: no padding, no whitespace, no '+' or '/', and the unused low bits of
 * the last character must be zero. So each byte string has exactly one text form, and a
 * ciphertext cannot be altered in its text without altering its bytes.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/**
 * The value of each character code below 128, -1 outside the alphabet. A table indexed by
 * charCodeAt, because decoding runs for every field the vault opens (10,000 entries at each
 * unlock): iterating the string and looking each character up in a Map took about 20 µs for a
 * 400-character text in Node, several times the indexed loop.
 */
const VALUES = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) VALUES[ALPHABET.charCodeAt(i)] = i;

export function toBase64Url(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]! + ALPHABET[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]!;
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]!;
  }
  return out;
}

/** Throws TypeError on anything but canonical unpadded base64url. */
export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  if (typeof text !== 'string') throw new TypeError('Expected base64url text.');
  if (text.length % 4 === 1) throw new TypeError('Base64url text has an impossible length.');
  const out = new Uint8Array(Math.floor((text.length * 3) / 4));
  let acc = 0;
  let bits = 0;
  let o = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const value = code < 128 ? VALUES[code]! : -1;
    if (value < 0) throw new TypeError('Base64url text contains a character outside its alphabet.');
    acc = (acc << 6) | value;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
      acc &= (1 << bits) - 1;
    }
  }
  if (acc !== 0) throw new TypeError('Base64url text is not in canonical form.');
  return out;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
/** Matches only unpaired surrogates: in `u` mode a valid pair is one code point. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/**
 * UTF-8 bytes of a well-formed string. Throws TypeError on an unpaired surrogate, which
 * TextEncoder would silently turn into U+FFFD: encrypting that would store other text than
 * the caller gave.
 */
export function utf8Encode(text: string): Uint8Array<ArrayBuffer> {
  if (LONE_SURROGATE.test(text)) throw new TypeError('Text contains an unpaired surrogate and cannot be stored faithfully.');
  return encoder.encode(text);
}

/** Throws TypeError on invalid UTF-8 instead of inserting replacement characters. */
export function utf8Decode(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

/**
 * WebCrypto's TypeScript types want bytes over a plain ArrayBuffer; copy only when the view
 * sits on something else (a SharedArrayBuffer, say).
 */
export function asBufferSource(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return bytes.buffer instanceof ArrayBuffer ? (bytes as Uint8Array<ArrayBuffer>) : new Uint8Array(bytes);
}
