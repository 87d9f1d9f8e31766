import type { FastifyInstance } from 'fastify';
import { HttpError } from './http-error';
import { MAX_BODY_NESTING, nestingWithin } from './json-nesting';

export const BODY_NOT_UTF8 = 'The request body is not valid UTF-8 text.';
export const BODY_FORBIDDEN_CHARACTER =
  'The request body contains a character that is not allowed (a NUL character or an unpaired surrogate).';
export const BODY_TOO_DEEP = `The request body nests arrays or objects more than ${MAX_BODY_NESTING} deep.`;

/** Throws on the first byte sequence that is not UTF-8, instead of writing U+FFFD. */
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Fastify's JSON parser (with its prototype-poisoning protection), except that an empty
 * body is no body: clients often send Content-Type: application/json on bodiless POSTs
 * (logout, refresh-token, verify). JSON is the only body accepted: Fastify's default
 * text/plain parser is removed, so a body a cross-site form can send (text/plain,
 * urlencoded, multipart) is refused with 415 on every route, bodiless ones included.
 *
 * Invariant: no string of a parsed body (key or value, at any depth) holds U+0000 or an
 * unpaired surrogate, and the body was valid UTF-8. PostgreSQL refuses both characters (a 500
 * before this check), and a lenient decoder would store U+FFFD in place of bad bytes, silently
 * changing what the client sent; both are a 400 here, before any route runs. A body nesting
 * deeper than MAX_BODY_NESTING is a 400 before it is parsed at all.
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let text: string;
    try {
      text = typeof body === 'string' ? body : strictUtf8.decode(body);
    } catch {
      done(new HttpError(400, BODY_NOT_UTF8), undefined);
      return;
    }
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    if (!nestingWithin(text, MAX_BODY_NESTING)) {
      done(new HttpError(400, BODY_TOO_DEEP), undefined);
      return;
    }
    parseJson(request, text, (error, value) => {
      if (error) done(error, undefined);
      else if (!onlyAllowedStrings(value)) done(new HttpError(400, BODY_FORBIDDEN_CHARACTER), undefined);
      else done(null, value);
    });
  });
}

/** True when no string in `value` (keys included) holds U+0000 or a lone surrogate. Iterative: bodies may nest deeply. */
export function onlyAllowedStrings(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') {
      if (!allowedString(next)) return false;
    } else if (Array.isArray(next)) {
      for (const item of next) pending.push(item);
    } else if (next !== null && typeof next === 'object') {
      for (const [key, inner] of Object.entries(next)) {
        if (!allowedString(key)) return false;
        pending.push(inner);
      }
    }
  }
  return true;
}

/** A surrogate that is not half of a pair (with the u flag, a pair is one code point). */
const LONE_SURROGATE = /\p{Cs}/u;

function allowedString(text: string): boolean {
  return !text.includes('\u0000') && !LONE_SURROGATE.test(text);
}
