/**
 * The SSH wire encoding OpenSSH's key files use (RFC 4251 section 5): big-endian uint32 and
 * length-prefixed strings, with base64 for the armoured text. Shared by the key reader and the
 * passphrase opener.
 */

export class SshReader {
  #offset = 0;
  constructor(private readonly bytes: Uint8Array) {}

  uint32(): number {
    if (this.#offset + 4 > this.bytes.length) throw new RangeError('short');
    const view = new DataView(this.bytes.buffer, this.bytes.byteOffset + this.#offset, 4);
    this.#offset += 4;
    return view.getUint32(0);
  }

  string(): Uint8Array {
    const length = this.uint32();
    if (this.#offset + length > this.bytes.length) throw new RangeError('short');
    const value = this.bytes.subarray(this.#offset, this.#offset + length);
    this.#offset += length;
    return value;
  }

  /** The next `length` bytes, without a length prefix (an AEAD tag after the last string). */
  fixed(length: number): Uint8Array {
    if (this.#offset + length > this.bytes.length) throw new RangeError('short');
    const value = this.bytes.subarray(this.#offset, this.#offset + length);
    this.#offset += length;
    return value;
  }

  text(): string {
    return new TextDecoder().decode(this.string());
  }
}

export function text(value: string): Uint8Array {
  return new TextEncoder().encode(value);
}

export function uint32(value: number): Uint8Array {
  const bytes = new Uint8Array(4);
  new DataView(bytes.buffer).setUint32(0, value);
  return bytes;
}

/** Each value as an SSH string (length, then bytes). */
export function encode(values: Uint8Array[]): Uint8Array {
  return concat(values.flatMap((value) => [uint32(value.length), value]));
}

export function concat(parts: Uint8Array[]): Uint8Array {
  const result = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    result.set(part, offset);
    offset += part.length;
  }
  return result;
}

export function equal(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

export function fromBase64(value: string): Uint8Array {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(value)) throw new Error('not base64');
  return Uint8Array.from(atob(value), (char) => char.charCodeAt(0));
}
