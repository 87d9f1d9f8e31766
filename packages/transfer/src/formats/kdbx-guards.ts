import * as kdbxNamespace from 'kdbxweb';
import { ImportFileError } from '../import-format';

const kdbxweb = (kdbxNamespace as unknown as { default?: typeof kdbxNamespace }).default ?? kdbxNamespace;

/** The decrypted, inflated content of a KDBX (its XML and attachments) may not be larger than this. */
export const KDBX_MAX_INNER_BYTES = 256 * 1024 * 1024;

const DOCTYPE_REFUSED =
  'The database holds a DOCTYPE or XML entities. KeePass never writes one, and Lockit does not expand entities (they can make a file grow without bound), so this file is refused.';

/**
 * Refuses gzip data whose trailer declares more than KDBX_MAX_INNER_BYTES, or more compressed
 * bytes than a real gzip of that size could have. kdbxweb inflates into a buffer of the declared
 * size (fflate's gunzipSync), so checking the declaration bounds the memory the inflation takes.
 * Anything that is not gzip is returned unchanged.
 */
export function checkInnerGzip(data: ArrayBuffer): ArrayBuffer {
  const bytes = new Uint8Array(data);
  if (bytes.length < 18 || bytes[0] !== 0x1f || bytes[1] !== 0x8b) return data;
  const declared = new DataView(data).getUint32(bytes.length - 4, true);
  if (declared > KDBX_MAX_INNER_BYTES) {
    throw new ImportFileError(
      `The database's content inflates to ${Math.round(declared / 1024 / 1024)} MB, more than Lockit reads (${KDBX_MAX_INNER_BYTES / 1024 / 1024} MB).`,
    );
  }
  // Deflate never grows data by more than 5 bytes per 16 KB block: more input than that is a lie.
  if (bytes.length > declared + Math.ceil(declared / 16384) * 5 + 1024) {
    throw new ImportFileError('The database is damaged: its compressed content does not match its declared size.');
  }
  return data;
}

/**
 * Security invariants kdbxweb does not give by itself, installed once on its shared objects:
 * - the decrypted XML is refused when it has a DOCTYPE or an entity declaration, before the
 *   DOMParser (the browser's, or xmldom in a worker or Node) sees it, as a KeePass XML export is;
 * - the decrypted gzip stream is checked by checkInnerGzip before kdbxweb inflates it (KDBX 4:
 *   the output of `decryptData`; KDBX 3.1: the output of `HashedBlockTransform.decrypt`).
 * A file made by someone who also gives you its password can thus neither expand entities nor
 * make the tab allocate gigabytes.
 */
export function installKdbxGuards(): void {
  const xmlUtils = kdbxweb.XmlUtils as { parse: (xml: string) => Document };
  const parseXml = xmlUtils.parse;
  xmlUtils.parse = (xml: string) => {
    if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new ImportFileError(DOCTYPE_REFUSED);
    return parseXml(xml);
  };

  const format = kdbxweb.KdbxFormat.prototype as unknown as {
    decryptData(data: ArrayBuffer, key: ArrayBuffer): Promise<ArrayBuffer>;
    kdbx: { header: { versionMajor: number } };
  };
  const decryptData = format.decryptData;
  format.decryptData = async function (this: typeof format, data, key) {
    const plain = await decryptData.call(this, data, key);
    return this.kdbx.header.versionMajor >= 4 ? checkInnerGzip(plain) : plain;
  };

  const hashed = kdbxweb.HashedBlockTransform as { decrypt: (data: ArrayBuffer) => Promise<ArrayBuffer> };
  const decryptBlocks = hashed.decrypt;
  hashed.decrypt = async (data) => checkInnerGzip(await decryptBlocks(data));
}
