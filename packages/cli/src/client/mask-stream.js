import { Transform } from 'node:stream';

export const MASK = '<concealed by lockit>';

/**
 * Replaces every occurrence of the secrets in a byte stream with MASK (`lockit run`). A secret
 * cut across two chunks is still caught: the end of a chunk that could begin a secret is held
 * back until the next chunk (or the end) shows whether it does, and nothing else is held, so
 * interactive output still flows. Bytes are compared as bytes (latin1 strings of the UTF-8), so
 * output that is not UTF-8 passes through unchanged.
 *
 * @param {readonly string[]} secrets
 */
export function maskStream(secrets) {
  const needles = [...new Set(secrets.filter((secret) => secret !== ''))]
    .map((secret) => Buffer.from(secret, 'utf8').toString('latin1'))
    .sort((a, b) => b.length - a.length);
  const mask = Buffer.from(MASK, 'utf8').toString('latin1');
  let pending = '';
  /** @param {string} text */
  const replaceAll = (text) => needles.reduce((out, needle) => out.split(needle).join(mask), text);
  /** How much of the end of `text` could be the start of a secret. */
  const heldBack = (/** @type {string} */ text) => {
    let longest = 0;
    for (const needle of needles) {
      for (let length = Math.min(needle.length - 1, text.length); length > longest; length--) {
        if (text.endsWith(needle.slice(0, length))) {
          longest = length;
          break;
        }
      }
    }
    return longest;
  };
  return new Transform({
    transform(chunk, _encoding, done) {
      const text = replaceAll(pending + Buffer.from(chunk).toString('latin1'));
      const hold = heldBack(text);
      pending = text.slice(text.length - hold);
      done(null, Buffer.from(text.slice(0, text.length - hold), 'latin1'));
    },
    flush(done) {
      done(null, Buffer.from(replaceAll(pending), 'latin1'));
    },
  });
}
