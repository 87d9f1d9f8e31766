import { foldForSearch } from '@lockit/client-core';

/** What an entry's coloured circle shows: one or two graphemes and a hue (0-359). */
export interface Monogram {
  letters: string;
  hue: number;
}

/** Shown when neither the name nor the address has a letter, digit or emoji to take. */
export const UNKNOWN_MONOGRAM_LETTER = '?';

const segmenter = typeof Intl.Segmenter === 'function' ? new Intl.Segmenter(undefined, { granularity: 'grapheme' }) : null;

function graphemes(text: string): string[] {
  // Without Intl.Segmenter (Firefox before 125) code points are the closest cut.
  return segmenter ? Array.from(segmenter.segment(text), (part) => part.segment) : Array.from(text);
}

/** A grapheme worth showing: one that starts with a letter, a digit or a pictograph. */
const SHOWABLE = /^[\p{L}\p{N}\p{Extended_Pictographic}\p{Regional_Indicator}]/u;

/** Word breaks in names: "my-bank", "work_mail", "Bank | savings". */
const WORD_BREAK = /[\s\-_/|,;:+&·•–—]+/u;

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
/** A bare host: "github.com", "www.mail.example/inbox", "192.168.1.1:8080". */
const BARE_HOST = /^[\p{L}\p{N}-]+(\.[\p{L}\p{N}-]+)+(:\d+)?([/?#].*)?$/u;
/** Second-level labels under which the name is one label further left ("bbc.co.uk"). */
const GENERIC_SECOND_LEVEL = new Set(['co', 'com', 'net', 'org', 'gov', 'edu', 'ac', 'or', 'ne', 'go']);

/** The host of a URL-like text, or null when the text is not one. */
function hostOf(text: string): string | null {
  const trimmed = text.trim();
  if (SCHEME.test(trimmed)) {
    try {
      const { hostname } = new URL(trimmed);
      return hostname === '' ? null : hostname.replace(/^\[|\]$/g, '');
    } catch {
      return null;
    }
  }
  if (!BARE_HOST.test(trimmed)) return null;
  return trimmed.split(/[:/?#]/, 1)[0]?.toLowerCase() ?? null;
}

/** The label that names the site: "mail.google.com" -> "google", "bbc.co.uk" -> "bbc". */
function siteLabel(host: string): string {
  if (/^[\d.]+$/.test(host) || host.includes(':')) return host; // an IP address
  const labels = host
    .replace(/^www\./, '')
    .split('.')
    .filter(Boolean);
  if (labels.length < 2) return labels[0] ?? host;
  const secondLevel = labels[labels.length - 2] ?? '';
  if (labels.length >= 3 && GENERIC_SECOND_LEVEL.has(secondLevel)) return labels[labels.length - 3] ?? secondLevel;
  return secondLevel;
}

function firstShowable(word: string): string | null {
  return graphemes(word).find((grapheme) => SHOWABLE.test(grapheme)) ?? null;
}

function upper(grapheme: string): string {
  const upperCase = grapheme.toUpperCase();
  // "ß" upper-cases to "SS": two letters where the name has one.
  return graphemes(upperCase).length === 1 ? upperCase : grapheme;
}

function lettersOfName(name: string): string {
  const letters = name
    .split(WORD_BREAK)
    .map(firstShowable)
    .filter((letter): letter is string => letter !== null)
    .slice(0, 2);
  return letters.map(upper).join('');
}

function lettersOfHost(host: string): string {
  const letter = firstShowable(siteLabel(host));
  return letter === null ? '' : upper(letter);
}

/** FNV-1a over UTF-16 code units: cheap, and the same on every browser and run. */
function hash(text: string): number {
  let value = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    value ^= text.charCodeAt(i);
    value = Math.imul(value, 0x01000193);
  }
  return value >>> 0;
}

/**
 * The circle an entry shows instead of a site icon, made without any network request.
 * Letters: the first letter of the first two words of the name ("Émoji Bank" -> "ÉB"), or
 * of the site for a URL-like name ("https://mail.google.com" -> "G"); an emoji or an accented
 * letter is kept whole. A name without any gives the letter of `url`'s site, then "?".
 * The hue depends only on the folded name (or the address, for a nameless entry), so an
 * entry keeps its colour across sessions and "Émoji" and "emoji" share one.
 */
export function monogramOf(name: string, url?: string): Monogram {
  const nameHost = hostOf(name);
  let letters = (nameHost === null ? lettersOfName(name) : lettersOfHost(nameHost)).normalize('NFC');
  if (letters === '' && url !== undefined) {
    const urlHost = hostOf(url);
    if (urlHost !== null) letters = lettersOfHost(urlHost).normalize('NFC');
  }
  const colourSource = foldForSearch(name) || foldForSearch(url ?? '');
  return { letters: letters || UNKNOWN_MONOGRAM_LETTER, hue: hash(colourSource) % 360 };
}
