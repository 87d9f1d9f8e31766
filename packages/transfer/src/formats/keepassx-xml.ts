import { decodeText } from '../csv/decode-text';
import { ImportFileError, type ImportFile, type ImportFormat, type ParseResult } from '../import-format';
import { AttachmentBudget, decodeBase64 } from './attachment-budget';
import { keepassDate } from './keepass-xml';
import { keepassItems, type KeePassEntry, type KeePassGroup } from './keepass-tree';
import { child, children, lineAt, parseXml, textOf, type XmlNode } from './xml-read';

/**
 * KeePassX 0.4's XML export: `<!DOCTYPE KEEPASSX_DATABASE><database>` holding nested
 * `<group><title>` elements whose `<entry>` has title, username, password, url, comment (line
 * breaks written as `<br/>`), creation, lastmod, expire ("Never" or a date), and bindesc/bin for
 * an attachment. The entries go through the same KeePass mapping as a KeePass 2 export.
 *
 * Security invariant: the one DOCTYPE KeePassX writes, `<!DOCTYPE KEEPASSX_DATABASE>`, declares
 * nothing; any other DOCTYPE or an entity declaration is refused before parsing, and entities
 * are never expanded (as for KeePass 2 XML, decision 0035).
 */
const REPEATED = new Set(['group', 'entry']);
const OWN_DOCTYPE = /<!DOCTYPE\s+KEEPASSX_DATABASE\s*>/i;

/** KeePassX 0.4 moved every deleted or replaced entry into a top-level "Backup" group. */
const BACKUP_GROUP = 'Backup';

export const keepassxXmlFormat: ImportFormat = {
  id: 'keepassx-xml',
  label: 'KeePassX 0.4 (XML)',
  detect(file) {
    const head = new TextDecoder().decode(file.bytes.subarray(0, 4096)).replace(/^\uFEFF/, '');
    if (OWN_DOCTYPE.test(head)) return 0.95;
    return /^\s*(<\?xml[^>]*\?>\s*)?<database>\s*<group>/.test(head) ? 0.8 : 0;
  },
  async parse(file) {
    return parseKeepassx(file);
  },
};

function parseKeepassx(file: ImportFile): ParseResult {
  const text = decodeText(file).replace(OWN_DOCTYPE, '');
  const declaration = /<!DOCTYPE|<!ENTITY/i.exec(text);
  if (declaration) {
    const line = lineAt(text, declaration.index);
    throw new ImportFileError(
      `Line ${line}: the file declares XML entities or a DOCTYPE KeePassX never writes. Lockit does not expand entities (they can make a file grow without bound), so this file is refused.`,
      line,
    );
  }
  // A line break in a comment is a <br/> element: made a character reference so it stays in place.
  const document = parseXml(text.replace(/<br\s*\/>/gi, '&#10;'), REPEATED);
  const database = child(document, 'database');
  if (!database) throw new ImportFileError('The file is XML but not a KeePassX export: it has no <database> element.');
  const groups = children(database, 'group').map((group) => groupOf(group, 0, new AttachmentBudget()));
  const result = keepassItems({ name: 'Database', isRecycleBin: false, entries: [], groups });
  return { format: 'keepassx-xml', ...result };
}

function groupOf(node: XmlNode, depth: number, budget: AttachmentBudget): KeePassGroup {
  const name = textOf(node.title).trim() || 'Group';
  return {
    name,
    // The recycle bin rule reports its entries as deleted, which is what KeePassX's Backup holds.
    isRecycleBin: depth === 0 && name === BACKUP_GROUP,
    entries: children(node, 'entry').map((entry) => entryOf(entry, budget)),
    groups: children(node, 'group').map((group) => groupOf(group, depth + 1, budget)),
  };
}

function entryOf(node: XmlNode, budget: AttachmentBudget): KeePassEntry {
  const value = (name: string) => textOf(node[name]);
  const expire = value('expire').trim();
  const attachment = value('bindesc').trim();
  const bin = value('bin').trim();
  // <bin> is the file's base64; KeePassX writes an empty one for an entry without a file.
  const bytes = bin === '' ? null : decodeBase64(bin);
  if (bytes !== null) budget.take(bytes.length);
  return {
    strings: [
      { key: 'Title', value: value('title'), protected: false },
      { key: 'UserName', value: value('username'), protected: false },
      { key: 'Password', value: value('password'), protected: true },
      { key: 'URL', value: value('url'), protected: false },
      { key: 'Notes', value: value('comment'), protected: false },
    ],
    tags: [],
    createdAt: keepassDate(value('creation')),
    updatedAt: keepassDate(value('lastmod')),
    expiresAt: /^never$/i.test(expire) ? null : keepassDate(expire),
    history: [],
    attachments: attachment === '' && bin === '' ? [] : [{ name: attachment || 'attachment', bytes }],
  };
}
