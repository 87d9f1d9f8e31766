import { parse as parseQueryString } from 'fast-querystring';
import secureJson from 'secure-json-parse';
import type { z } from 'zod';
import { accountDocumentKindSchema, entryIdSchema, sessionIdSchema } from '@lockit/contract';
import { MAX_BODY_NESTING, nestingWithin } from '../../src/http/json-nesting';

/**
 * A model of the server's request pipeline, in the order Fastify and the app run it: what a
 * request must be answered, decided from the facts the generator chose. The hostile-input
 * suite compares every real answer with it.
 */

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** One API operation, as the hostile-input suite sees it. */
export interface RouteUnderAttack {
  name: string;
  method: Method;
  path: (id: string) => string;
  hasIdParam: boolean;
  /** What the id in the path names (default: an entry). */
  resource?: 'entry' | 'folder' | 'batch' | 'document' | 'invite' | 'user' | 'session';
  isPublic: boolean;
  /** Which session the route wants: a user's (default) or the operator's admin session. */
  session?: 'user' | 'admin';
  /** Routes that read the query string (`?revision=N`): its schema. */
  query?: z.ZodType;
  /** Routes that read a body: its schema and a body the schema accepts, to mutate. */
  body?: { schema: z.ZodType; valid: Record<string, unknown> };
  /** Fields inside objects (e.g. `kdf.memoryKiB`) or arrays (`entries.0.id`) the mutations also reach. */
  nestedFields?: string[];
  /** Bodies written out for this route (sent as they are), besides the generated mutations. */
  bodyVariants?: unknown[];
  /** The route's own body cap, when it is not the server's BODY_LIMIT. */
  bodyLimit?: number;
}

/** The signed-in victim's world the requests aim at. */
export interface Target {
  accessToken: string;
  refreshToken: string;
  ownEntryId: string;
  otherUsersEntryId: string;
  ownFolderId: string;
  otherUsersFolderId: string;
  /** Import batches (decision 0036): one of the victim's, one of another account's. */
  ownBatchId: string;
  otherUsersBatchId: string;
  /** The operator's admin session token (admin routes), and a user id no account has. */
  adminToken: string;
  unknownUserId: string;
  /** Sessions: the victim's current one (never ended here: that is logout) and another account's. */
  ownSessionId: string;
  otherUsersSessionId: string;
}

export interface HostileRequest {
  method: Method;
  url: string;
  headers: Record<string, string>;
  payload: string | Buffer | undefined;
  /** The status the server must answer, and why (for failure messages). */
  expected: { status: number; reason: string };
}

export const BODY_LIMIT = 256 * 1024;
export const MAX_PARAM_LENGTH = 100;

/** A body, as the bytes sent, and what the server's parser makes of it. */
export interface BodyChoice {
  payload: string | Buffer | undefined;
  contentType: string | undefined;
  /** The parsed JSON when the parser accepts the text, else undefined. */
  parsed?: { value: unknown };
}

/** What the router makes of a query string (`?a=1`, or empty): Fastify's own parser, fast-querystring. */
export function parsedQuery(query: string): Record<string, unknown> {
  const text = query.startsWith('?') ? query.slice(1) : query;
  return text.length === 0 ? {} : (parseQueryString(text) as Record<string, unknown>);
}

/**
 * What the server's parser makes of a body: bytes that are not UTF-8 are refused, then a body
 * nesting past MAX_BODY_NESTING (json-nesting.test.ts proves the count), then Fastify's own
 * JSON parser (secure-json-parse, poisoning refused), then any string holding U+0000 or an
 * unpaired surrogate is refused.
 */
export function parsedOrNot(body: string | Buffer): Pick<BodyChoice, 'parsed'> {
  let text: string;
  try {
    text = typeof body === 'string' ? body : new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(body);
  } catch {
    return {};
  }
  if (text.trim() === '') return { parsed: { value: undefined } };
  if (!nestingWithin(text, MAX_BODY_NESTING)) return {};
  try {
    const value: unknown = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
    return hasForbiddenCharacter(value) ? {} : { parsed: { value } };
  } catch {
    return {};
  }
}

/** U+0000 or a lone surrogate in any key or string value, at any depth. */
function hasForbiddenCharacter(value: unknown): boolean {
  const forbidden = (text: string) => text.includes('\u0000') || /\p{Cs}/u.test(text);
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') {
      if (forbidden(next)) return true;
    } else if (Array.isArray(next)) {
      for (const item of next) pending.push(item);
    } else if (next !== null && typeof next === 'object') {
      for (const [key, inner] of Object.entries(next)) {
        if (forbidden(key)) return true;
        pending.push(inner);
      }
    }
  }
  return false;
}

export function isJson(contentType: string | undefined): boolean {
  return contentType !== undefined && /^application\/json\s*(;|$)/i.test(contentType);
}

/** A revision past what the database's integer column holds (the server refuses it before asking). */
function beyondRevisionColumn(input: unknown): boolean {
  const revision = (input as { revision?: unknown }).revision;
  return typeof revision === 'number' && revision > 2_147_483_647;
}

/** The facts of one generated request that decide its answer. */
export interface RequestFacts {
  target: Target;
  originAllowed: boolean;
  sessionValid: boolean;
  /** The entry or folder id as it appears in the path (percent-encoded). */
  param: string | undefined;
  /** The query string as sent: empty, or starting with `?`. */
  query: string;
  body: BodyChoice;
  bytes: number;
  /** What Content-Length says; differs from `bytes` when the test lies. */
  declaredBytes: number;
}

/**
 * The answer the pipeline must give, from the first check that refuses: routing, origin,
 * session, body parsing, path parameter, query, body schema, then the handler's own refusals.
 * Undefined when nothing refuses (such a request is not generated: it could succeed, or be
 * answered 409 by a revision check, whose answer carries the entry).
 */
export function expectedRefusal(route: RouteUnderAttack, c: RequestFacts): HostileRequest['expected'] | undefined {
  // ".." is resolved away by URL parsing before routing: the path goes up to no route at all;
  // so is a "." with more path after it ("/users/./end-sessions"). The not-found route still
  // checks the origin and parses a JSON body, but asks for no session. (A "." at the end stays
  // on the route, with an id the id check refuses.)
  const resolvedAway = c.param === '..' || (c.param === '.' && !route.path('.').endsWith('/.'));
  if (c.param !== undefined && /%(?![0-9A-Fa-f]{2})/.test(c.param)) return { status: 400, reason: 'malformed URL' };
  const id = c.param !== undefined ? decodeURIComponent(c.param) : undefined;
  if (id !== undefined && id.length > MAX_PARAM_LENGTH) return { status: 414, reason: 'path parameter too long' };
  if (route.method !== 'GET' && !c.originAllowed) return { status: 403, reason: 'origin' };
  if (!resolvedAway && !route.isPublic && !c.sessionValid) return { status: 401, reason: 'no session' };
  let parsed: unknown;
  // The not-found route reads only JSON bodies (any other type is left unread: no 415 there),
  // with the app's own body limit.
  const bodyRead = route.method !== 'GET' && c.bytes > 0 && (!resolvedAway || isJson(c.body.contentType));
  if (bodyRead) {
    if (!isJson(c.body.contentType)) return { status: 415, reason: 'content type' };
    const limit = resolvedAway ? BODY_LIMIT : (route.bodyLimit ?? BODY_LIMIT);
    if (Math.max(c.bytes, c.declaredBytes) > limit) return { status: 413, reason: 'body size' };
    if (c.declaredBytes !== c.bytes) return { status: 400, reason: 'content length' };
    if (!c.body.parsed) return { status: 400, reason: 'invalid JSON' };
    parsed = c.body.parsed.value;
  }
  if (resolvedAway) return { status: 404, reason: 'dot segments resolved away: no route' };
  // An account document is named by its kind, not an id; every kind is the caller's own (decision 0030).
  if (id !== undefined && route.resource === 'document') {
    if (!accountDocumentKindSchema.safeParse(id).success) return { status: 400, reason: 'document kind' };
  } else if (id !== undefined && route.resource === 'session') {
    if (!sessionIdSchema.safeParse(id).success) return { status: 400, reason: 'session id' };
  } else if (id !== undefined && !entryIdSchema.safeParse(id).success) return { status: 400, reason: 'entry id' };
  if (route.query) {
    const query = route.query.safeParse(parsedQuery(c.query));
    if (!query.success) return { status: 400, reason: 'query' };
    if (beyondRevisionColumn(query.data)) return { status: 400, reason: 'revision too large' };
  }
  if (route.body) {
    const objectBody = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed);
    const body = objectBody ? route.body.schema.safeParse(parsed) : undefined;
    if (!body?.success) return { status: 400, reason: 'schema' };
    if (beyondRevisionColumn(body.data)) return { status: 400, reason: 'revision too large' };
  }
  if (route.name === 'refresh-token') return { status: 401, reason: 'no valid refresh token' };
  // Admin routes: the suite never sends the right admin token, and aims only at user ids no
  // account has, so that nothing a request could do is ever done.
  if (route.name === 'admin-sign-in') return { status: 401, reason: 'wrong admin token' };
  if (route.resource === 'user') return { status: 404, reason: 'no account with that id' };
  // The suite's server is in open mode (the default): nobody makes invitations there, so the
  // victim has none to revoke (decision 0044).
  if (route.name === 'create-invite') return { status: 403, reason: 'invitations are off in open mode' };
  if (route.resource === 'invite') return { status: 404, reason: 'not an open invitation of the caller' };
  // The victim has one session, the one the suite uses: ending it is refused (logout ends it),
  // and any other id is not one of the caller's sessions.
  if (route.resource === 'session') {
    return id?.toLowerCase() === c.target.ownSessionId
      ? { status: 400, reason: 'the current session' }
      : { status: 404, reason: 'not a session of the caller' };
  }
  if (route.name === 'add-entry-batch') return batchIdClash(parsed, c.target);
  if (route.name === 'update-entry' && id !== undefined) {
    const body = parsed as { id?: unknown; _id?: unknown };
    if ([body.id, body._id].some((bodyId) => typeof bodyId === 'string' && bodyId.toLowerCase() !== id.toLowerCase())) {
      return { status: 400, reason: 'id mismatch' };
    }
  }
  if (route.resource === 'document') return undefined;
  const ownId =
    route.resource === 'folder' ? c.target.ownFolderId : route.resource === 'batch' ? c.target.ownBatchId : c.target.ownEntryId;
  if (id !== undefined && id.toLowerCase() !== ownId)
    return { status: 404, reason: `not the caller’s ${route.resource ?? 'entry'}` };
  return undefined;
}

/**
 * A batch the schema accepts is refused whole (409) when one of its entry ids repeats in the
 * call or is already in the caller's vault (ids are per account: another account's id is free
 * to use, migration 0011); else it could be stored.
 */
function batchIdClash(parsed: unknown, target: Target): HostileRequest['expected'] | undefined {
  const ids = (parsed as { entries: Array<{ id: string }> }).entries.map((entry) => entry.id.toLowerCase());
  const taken = [target.ownEntryId];
  if (new Set(ids).size !== ids.length || ids.some((id) => taken.includes(id))) return { status: 409, reason: 'entry id taken' };
  return undefined;
}
