/**
 * How deep a request body may nest arrays and objects. Lockit's own bodies nest a few levels
 * (a passkey's answer is among the deepest); 32 leaves room for any client and none for a body
 * built to cost work.
 */
export const MAX_BODY_NESTING = 32;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/**
 * True when `text`, read as JSON, opens at most `max` arrays or objects inside one another
 * (brackets inside strings do not count). One pass over the characters, allocating nothing.
 *
 * Why by hand: `JSON.parse` (and secure-json-parse, Fastify's parser on top of it) takes no
 * depth limit, and a 256 KiB body of `[[[[…` costs it some 40 ms of CPU and its garbage, so
 * that a few such requests a second keep a core busy. Counting first makes that body cost
 * about as much as reading it. Malformed text may be counted wrongly; it is refused either way.
 */
export function nestingWithin(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (inString) {
      if (code === BACKSLASH) at++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) inString = true;
    else if (code === OPEN_ARRAY || code === OPEN_OBJECT) {
      if (++depth > max) return false;
    } else if (code === CLOSE_ARRAY || code === CLOSE_OBJECT) depth--;
  }
  return true;
}
