import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { ImportFileError } from '../import-format';

export type XmlNode = Record<string, unknown>;

/**
 * The document of a KeePass or KeePassX XML export, parsed with entity processing off (the
 * caller has refused any entity declaration first); elements named in `repeated` are always
 * arrays. Malformed XML is refused with its line.
 */
export function parseXml(text: string, repeated: ReadonlySet<string>): XmlNode {
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    throw new ImportFileError(`Line ${valid.err.line}: the file is not well-formed XML (${valid.err.msg})`, valid.err.line);
  }
  try {
    return new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '@_',
      processEntities: false,
      htmlEntities: false,
      parseTagValue: false,
      parseAttributeValue: false,
      trimValues: false,
      isArray: (name) => repeated.has(name),
    }).parse(text) as XmlNode;
  } catch (error) {
    throw new ImportFileError(`The file cannot be read as XML: ${error instanceof Error ? error.message : String(error)}.`);
  }
}

export function child(node: XmlNode | undefined, name: string): XmlNode | undefined {
  const value = node?.[name];
  const single = Array.isArray(value) ? value[0] : value;
  return typeof single === 'object' && single !== null ? (single as XmlNode) : undefined;
}

export function children(node: XmlNode | undefined, name: string): XmlNode[] {
  const value = node?.[name];
  const list = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return list.filter((item): item is XmlNode => typeof item === 'object' && item !== null);
}

/** An element's text with entities decoded ('' for an empty or missing element). */
export function textOf(node: unknown): string {
  if (typeof node === 'string') return decodeEntities(node);
  if (typeof node === 'object' && node !== null) {
    const text = (node as XmlNode)['#text'];
    return typeof text === 'string' ? decodeEntities(text) : '';
  }
  return '';
}

const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** XML's predefined entities and character references; anything else is left as written. */
function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|lt|gt|amp|quot|apos);/g, (whole, ref: string) => {
    if (ref[0] !== '#') return NAMED[ref] ?? whole;
    const code = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

export function lineAt(text: string, index: number): number {
  return text.slice(0, index).split('\n').length;
}
