import { unzipSync } from 'fflate';
import { decodeText, MAX_IMPORT_FILE_BYTES } from '../csv/decode-text';
import { ImportFileError, type ImportFile, type ImportFormat, type ParseResult, type SkippedRecord } from '../import-format';
import { type TransferItem } from '../transfer-item';
import { hasContent, isoDate, loginOrNote } from './item-rules';
import { isObject, protonCard, protonExtraFields, protonIdentity, protonOtherAsNote, str } from './proton-items';

/**
 * Proton Pass's JSON export: `{version, userId, encrypted, vaults: {<shareId>: {name, items: [
 * {itemId, state, aliasEmail?, createTime, modifyTime, pinned, data: {type, metadata: {name,
 * note}, content, extraFields}}]}}}`, on its own or as "Proton Pass/data.json" in the ZIP the
 * app writes. The vault becomes the folder, `pinned` the favourite, state 2 (Trash) `trashedAt`.
 * An encrypted (PGP) export is refused with what to do instead.
 */

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];
const isZip = (bytes: Uint8Array) => ZIP_MAGIC.every((byte, index) => bytes[index] === byte);

/**
 * The data.json of a Proton ZIP. Security invariant: only an entry named data.json whose
 * declared size is within MAX_IMPORT_FILE_BYTES is inflated, and the result is checked again
 * (a ZIP bomb can lie in its header); nothing else in the archive is decompressed.
 */
function dataJsonOfZip(bytes: Uint8Array): string | null {
  let tooBig = false;
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(bytes, {
      filter: (entry) => {
        if (!/(^|\/)data\.json$/.test(entry.name)) return false;
        if (entry.originalSize > MAX_IMPORT_FILE_BYTES) tooBig = true;
        return !tooBig;
      },
    });
  } catch {
    throw new ImportFileError('The ZIP file is damaged and cannot be opened.');
  }
  if (tooBig) throw new ImportFileError('The data.json in this ZIP is larger than 50 MB, so it was not opened.');
  const [data] = Object.values(entries);
  if (data === undefined) return null;
  if (data.length > MAX_IMPORT_FILE_BYTES)
    throw new ImportFileError('The data.json in this ZIP is larger than 50 MB, so it was not opened.');
  return decodeText({ name: 'data.json', bytes: data });
}

function zipHasProtonData(bytes: Uint8Array): boolean {
  let found = false;
  try {
    unzipSync(bytes, {
      filter: (entry) => {
        if (/^Proton Pass\/data\.json$/.test(entry.name)) found = true;
        return false;
      },
    });
  } catch {
    return false;
  }
  return found;
}

function itemOf(raw: unknown, vaultName: string, skipped: SkippedRecord[], where: string): TransferItem | null {
  if (!isObject(raw) || !isObject(raw.data)) throw new ImportFileError(`${where}: the item has no "data".`);
  const data = raw.data;
  const type = str(data.type);
  const metadata = isObject(data.metadata) ? data.metadata : {};
  const content = isObject(data.content) ? data.content : {};
  const name = str(metadata.name);
  let item: TransferItem;
  if (type === 'login') {
    // Before 1.18 the login had one `username`, which was the email.
    const email = str(content.itemEmail);
    const username = str(content.itemUsername) || str(content.username) || email;
    const urls = Array.isArray(content.urls) ? content.urls.map((url) => (isObject(url) ? str(url.url) : str(url))) : [];
    item = loginOrNote({ name, username, password: str(content.password), urls, notes: '', totp: str(content.totpUri) });
    if (email !== '' && email !== username) item.fields.push({ label: 'Email', kind: 'text', value: email });
    if (Array.isArray(content.passkeys) && content.passkeys.length > 0) {
      skipped.push({
        line: null,
        reason: `${where} ("${item.name}"): its passkey was not imported; Lockit does not hold passkeys.`,
      });
    }
  } else if (type === 'note') {
    item = loginOrNote({ name, username: '', password: '', urls: [], notes: '', totp: '' });
  } else if (type === 'creditCard') {
    item = protonCard(name, content);
  } else if (type === 'identity') {
    item = protonIdentity(name, content);
  } else if (type === 'alias') {
    item = protonOtherAsNote(name, 'alias', { aliasEmail: str(raw.aliasEmail) });
  } else {
    item = protonOtherAsNote(name, type || 'unknown', content);
  }
  item.notes = str(metadata.note) || item.notes;
  item.fields.push(...protonExtraFields(data.extraFields));
  item.folder = vaultName.trim() || null;
  item.favorite = raw.pinned === true;
  item.createdAt = isoDate(raw.createTime);
  item.updatedAt = isoDate(raw.modifyTime);
  if (raw.state === 2) item.trashedAt = item.updatedAt ?? new Date(0).toISOString();
  if (!hasContent(item, name.trim() !== '')) {
    skipped.push({ line: null, reason: `${where}: it is empty (no name, no values), so there is nothing to import.` });
    return null;
  }
  return item;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ImportFileError('The file is not valid JSON (it may be cut short or edited by hand).');
  }
}

export const protonJsonFormat: ImportFormat = {
  id: 'proton-json',
  label: 'Proton Pass (JSON or ZIP)',
  detect(file: ImportFile) {
    if (isZip(file.bytes)) return zipHasProtonData(file.bytes) ? 1 : 0;
    const head = new TextDecoder()
      .decode(file.bytes.subarray(0, 4096))
      .replace(/^\uFEFF/, '')
      .trimStart();
    if (head.startsWith('-----BEGIN PGP MESSAGE-----')) return 0.5;
    if (!head.startsWith('{')) return 0;
    return /"vaults"\s*:/.test(head) && /"(userId|version)"\s*:/.test(head) ? 0.95 : 0;
  },
  async parse(file, options): Promise<ParseResult> {
    let text: string;
    if (isZip(file.bytes)) {
      if (file.bytes.length > MAX_IMPORT_FILE_BYTES)
        throw new ImportFileError('The file is larger than 50 MB, so it was not opened.');
      const data = dataJsonOfZip(file.bytes);
      if (data === null) throw new ImportFileError('This ZIP is not a Proton Pass export: it has no "Proton Pass/data.json".');
      text = data;
    } else {
      text = decodeText(file);
    }
    if (text.trimStart().startsWith('-----BEGIN PGP MESSAGE-----')) {
      throw new ImportFileError(
        'This Proton Pass export is encrypted with PGP. In Proton Pass, export again without encryption (ZIP or CSV) and import that file.',
      );
    }
    const json = parseJson(text);
    if (!isObject(json) || !isObject(json.vaults))
      throw new ImportFileError('This is not a Proton Pass export: it has no "vaults".');
    if (json.encrypted === true) {
      throw new ImportFileError(
        'This Proton Pass export is encrypted. In Proton Pass, export again without encryption and import that file.',
      );
    }
    const items: TransferItem[] = [];
    const skipped: SkippedRecord[] = [];
    let count = 0;
    for (const vault of Object.values(json.vaults)) {
      if (!isObject(vault)) throw new ImportFileError('This Proton Pass export is damaged: a vault is not an object.');
      if (!Array.isArray(vault.items))
        throw new ImportFileError(`This Proton Pass export is damaged: vault "${str(vault.name)}" has no item list.`);
      for (const raw of vault.items) {
        count++;
        const item = itemOf(raw, str(vault.name), skipped, `Item ${count}`);
        if (item) items.push(item);
      }
    }
    options.onProgress?.(1);
    return { format: 'proton-json', items, skipped };
  },
};
