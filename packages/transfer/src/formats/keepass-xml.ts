import { decodeText } from '../csv/decode-text';
import { ImportFileError, type ImportFile, type ImportFormat, type ParseResult } from '../import-format';
import { AttachmentBudget, decodeBase64, gunzipWithin } from './attachment-budget';
import { keepassItems, type KeePassAttachment, type KeePassEntry, type KeePassGroup } from './keepass-tree';
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
  const binaries = binaryPool(meta, new AttachmentBudget());
  const { items, skipped } = keepassItems(groupOf(topGroup, recycleBinUuid, binaries));
  return { format: 'keepass-xml', items, skipped };
}

/** A binary's bytes by its pool id (Meta/Binaries), decoded once and only when an entry asks. */
interface BinaryPool {
  get(id: string): Uint8Array | null;
  budget: AttachmentBudget;
}

/**
 * KeePass 2 keeps attachments once in Meta/Binaries (`<Binary ID="0" Compressed="True">` with
 * base64 of the gzip of the file) and entries point at them with `<Value Ref="0"/>`; an entry's
 * `<Value>` may also hold the base64 itself. Every inflation counts against one budget.
 */
function binaryPool(meta: XmlNode | undefined, budget: AttachmentBudget): BinaryPool {
  const nodes = new Map(children(child(meta, 'Binaries'), 'Binary').map((node) => [String(node['@_ID'] ?? ''), node]));
  const decoded = new Map<string, Uint8Array | null>();
  const get = (id: string): Uint8Array | null => {
    if (!decoded.has(id)) {
      const node = nodes.get(id);
      decoded.set(id, node === undefined ? null : binaryValue(node, budget));
    }
    return decoded.get(id) ?? null;
  };
  return { get, budget };
}

/** The bytes of a `<Binary>` of the pool or an inline `<Value>`: base64, gunzipped when Compressed="True". */
function binaryValue(node: XmlNode, budget: AttachmentBudget): Uint8Array | null {
  if (isTrue(node['@_Protected'])) return null;
  const raw = decodeBase64(textOf(node));
  if (raw === null) return null;
  if (!isTrue(node['@_Compressed'])) {
    budget.take(raw.length);
    return raw;
  }
  return gunzipWithin(raw, budget);
}

const isTrue = (value: unknown) => String(value).toLowerCase() === 'true';

function groupOf(node: XmlNode, recycleBinUuid: string, binaries: BinaryPool): KeePassGroup {
  const uuid = textOf(node.UUID).trim();
  return {
    name: textOf(node.Name).trim() || 'Group',
    isRecycleBin: recycleBinUuid !== '' && uuid === recycleBinUuid && !/^A{22}==$/.test(uuid),
    entries: children(node, 'Entry').map((entry) => entryOf(entry, binaries)),
    groups: children(node, 'Group').map((group) => groupOf(group, recycleBinUuid, binaries)),
  };
}

function attachmentOf(binary: XmlNode, binaries: BinaryPool): KeePassAttachment {
  const name = textOf(binary.Key) || 'attachment';
  const value = child(binary, 'Value');
  const ref = value?.['@_Ref'];
  if (ref !== undefined) return { name, bytes: binaries.get(String(ref)) };
  // An inline value: text only (`<Value>base64</Value>`) or with attributes (Compressed="True").
  const inline = value ?? (typeof binary.Value === 'string' ? { '#text': binary.Value } : undefined);
  return { name, bytes: inline === undefined ? null : binaryValue(inline, binaries.budget) };
}

function entryOf(node: XmlNode, binaries: BinaryPool): KeePassEntry {
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
    attachments: children(node, 'Binary').map((binary) => attachmentOf(binary, binaries)),
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
