import * as kdbxNamespace from 'kdbxweb';

const kdbxweb = (kdbxNamespace as unknown as { default?: typeof kdbxNamespace }).default ?? kdbxNamespace;

const BLOCK = 16;

/**
 * Whether `key` opens a KDBX 2/3 AES-CBC payload, judged by its first two blocks alone: KDBX 2
 * and 3 keep the first 32 plain bytes in the header (StreamStartBytes) for this. WebCrypto has
 * no CBC without padding, so a third block is made, one that decrypts to a whole block of
 * padding after the second: E(key, C2 XOR padding), the first block of a CBC encryption of the
 * padding with C2 as its IV.
 */
export async function startBytesMatch(
  payload: Uint8Array,
  key: ArrayBuffer,
  iv: ArrayBuffer,
  startBytes: ArrayBuffer,
): Promise<boolean> {
  if (payload.length < 2 * BLOCK || startBytes.byteLength !== 2 * BLOCK) return false;
  const subtle = globalThis.crypto.subtle;
  const aes = await subtle.importKey('raw', key, { name: 'AES-CBC' }, false, ['encrypt', 'decrypt']);
  const second = payload.slice(BLOCK, 2 * BLOCK);
  const padding = new Uint8Array(BLOCK).fill(BLOCK);
  const extra = new Uint8Array(await subtle.encrypt({ name: 'AES-CBC', iv: second }, aes, padding)).slice(0, BLOCK);
  const blocks = new Uint8Array(3 * BLOCK);
  blocks.set(payload.subarray(0, 2 * BLOCK));
  blocks.set(extra, 2 * BLOCK);
  const plain = new Uint8Array(await subtle.decrypt({ name: 'AES-CBC', iv }, aes, blocks));
  const expected = new Uint8Array(startBytes);
  return plain.length === expected.length && plain.every((byte, index) => byte === expected[index]);
}

/**
 * kdbxweb decrypts a KDBX 2/3 payload (AES-CBC) whole, and calls any failure of it a wrong key.
 * A file cut short or damaged fails the padding check with the right key too, so the person was
 * told their password was wrong. When decryption fails, the first blocks are checked against
 * the header's StreamStartBytes: if they match, the key is right and the file is what is wrong.
 */
export function installKdbx3DamageCheck(): void {
  const format = kdbxweb.KdbxFormat.prototype as unknown as {
    decryptData(data: ArrayBuffer, key: ArrayBuffer): Promise<ArrayBuffer>;
    kdbx: { header: kdbxNamespace.KdbxHeader };
  };
  const decryptData = format.decryptData;
  format.decryptData = async function (this: typeof format, data, key) {
    // kdbxweb may wipe the key as it goes: a copy for the check below, wiped in turn.
    const keyCopy = key.slice(0);
    try {
      return await decryptData.call(this, data, key);
    } catch (error) {
      const { header } = this.kdbx;
      if (
        header.versionMajor < 4 &&
        error instanceof kdbxweb.KdbxError &&
        error.code === kdbxweb.Consts.ErrorCodes.InvalidKey &&
        header.dataCipherUuid?.toString() === kdbxweb.Consts.CipherId.Aes &&
        header.encryptionIV !== undefined &&
        header.streamStartBytes !== undefined &&
        (await startBytesMatch(new Uint8Array(data), keyCopy, header.encryptionIV, header.streamStartBytes))
      ) {
        throw new kdbxweb.KdbxError(kdbxweb.Consts.ErrorCodes.FileCorrupt, 'the encrypted content is cut short or damaged');
      }
      throw error;
    } finally {
      new Uint8Array(keyCopy).fill(0);
    }
  };
}
