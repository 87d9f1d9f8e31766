import { decodeText } from '../csv/decode-text';
import { ImportFileError, type ImportFile, type ImportFormat, type ParseResult } from '../import-format';
import { keepassItems, type KeePassEntry, type KeePassGroup } from './keepass-tree';
import { isoDate } from './item-rules';
import { child, children, lineAt, parseXml, textOf, type XmlNode } from './xml-read';

/** Elements that may repeat; fast-xml-parser gives them as arrays even when there is one. */
const REPEATED = new Set(['Group', 'Entry', 'String', 'Binary']);

/**
 * KeePass 2 XML ("KeePass XML (2.x)" export of KeePass and KeePassXC).
 *
 * Security invariant: no entity is ever expanded. A file with a DOCTYPE (the only place an
 * entity can be declared, so the only way to a "billion laughs" bomb or an external entity)
 * is refused before parsing; fast-xml-parser runs with entity processing off, and the five
 * predefined entities and numeric character references are decoded here, by hand, in one pass.
 * The file is bounded by decodeText (50 MB) and nesting by the parser (100 levels).
 */
export const keepassXmlFormat: ImportFormat = {
  id: 'keepass-xml',
  label: 'KeePass 2 (XML)',
  detect(file) {
    const head = new TextDecoder().decode(file.bytes.subarray(0, 4096));
    return /^\uFEFF?\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*<KeePassFile[\s>]/.test(head) ? 0.95 : 0;
  },
  async parse(file) {
    return parseKeepassXml(file);
  },
};

function parseKeepassXml(file: ImportFile): ParseResult {
  const text = decodeText(file);
  const doctype = /<!DOCTYPE|<!ENTITY/i.exec(text);
  if (doctype) {
    const line = lineAt(text, doctype.index);
    throw new ImportFileError(
      `Line ${line}: the file declares a DOCTYPE or XML entities. KeePass never writes one, and Lockit does not expand entities (they can make a file grow without bound), so this file is refused.`,
      line,
    );
  }
  const document = parseXml(text, REPEATED);
  const keepass = child(document, 'KeePassFile');
  const topGroup = children(child(keepass, 'Root'), 'Group')[0];
  if (!keepass || !topGroup) {
    throw new ImportFileError('The file is XML but not a KeePass export: it has no <KeePassFile> with a <Root> group.');
  }
  const meta = child(keepass, 'Meta');
  const recycleBinOn = textOf(meta?.RecycleBinEnabled).trim().toLowerCase() !== 'false';
  const recycleBinUuid = recycleBinOn ? textOf(meta?.RecycleBinUUID).trim() : '';
  const { items, skipped } = keepassItems(groupOf(topGroup, recycleBinUuid));
  return { format: 'keepass-xml', items, skipped };
}

function groupOf(node: XmlNode, recycleBinUuid: string): KeePassGroup {
  const uuid = textOf(node.UUID).trim();
  return {
    name: textOf(node.Name).trim() || 'Group',
    isRecycleBin: recycleBinUuid !== '' && uuid === recycleBinUuid && !/^A{22}==$/.test(uuid),
    entries: children(node, 'Entry').map(entryOf),
    groups: children(node, 'Group').map((group) => groupOf(group, recycleBinUuid)),
  };
}

function entryOf(node: XmlNode): KeePassEntry {
  const strings = children(node, 'String').map((string) => {
    const value = string.Value;
    const attributes = typeof value === 'object' && value !== null ? (value as XmlNode) : {};
    if (String(attributes['@_Protected']).toLowerCase() === 'true') {
      // Protected="True" values are encrypted with the database's inner stream key: they only
      // occur inside a .kdbx, never in an export, and cannot be read without that key.
      throw new ImportFileError(
        'The file holds encrypted values (it is the inside of a .kdbx, not an XML export); import the .kdbx file instead.',
      );
    }
    return {
      key: textOf(string.Key),
      value: textOf(value),
      protected: String(attributes['@_ProtectInMemory']).toLowerCase() === 'true',
    };
  });
  const times = child(node, 'Times');
  const history = children(child(node, 'History'), 'Entry').map((version) => ({
    password: textOf(children(version, 'String').find((string) => textOf(string.Key) === 'Password')?.Value),
    updatedAt: keepassDate(textOf(child(version, 'Times')?.LastModificationTime)),
  }));
  return {
    strings,
    tags: textOf(node.Tags).split(/[;,]/),
    createdAt: keepassDate(textOf(times?.CreationTime)),
    updatedAt: keepassDate(textOf(times?.LastModificationTime)),
    expiresAt: textOf(times?.Expires).trim().toLowerCase() === 'true' ? keepassDate(textOf(times?.ExpiryTime)) : null,
    history,
    attachments: children(node, 'Binary').map((binary) => textOf(binary.Key) || 'attachment'),
  };
}

/** ISO text (XML exports) or base64 of little-endian seconds since 0001-01-01 (KDBX 4's form). */
export function keepassDate(text: string): string | null {
  const trimmed = text.trim();
  if (/^[A-Za-z0-9+/]{11}=$/.test(trimmed)) {
    const bytes = Uint8Array.from(atob(trimmed), (char) => char.charCodeAt(0));
    const seconds = new DataView(bytes.buffer).getBigInt64(0, true);
    return isoDate(Number(seconds - 62135596800n));
  }
  return isoDate(trimmed);
}
