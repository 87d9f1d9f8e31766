import fc from 'fast-check';
export type { HostileRequest, RouteUnderAttack, Target } from './refusal-model';
import {
  BODY_LIMIT,
  expectedRefusal,
  isJson,
  MAX_PARAM_LENGTH,
  type HostileRequest,
  type RouteUnderAttack,
  type Target,
} from './refusal-model';
import { bodyArb } from './hostile-bodies';
import { HOSTILE_STRINGS } from './hostile-values';

const OWN_ORIGIN = 'http://localhost';

interface OriginChoice {
  allowed: boolean;
  headers: Record<string, string>;
}
const originArb: fc.Arbitrary<OriginChoice> = fc.oneof(
  { weight: 4, arbitrary: fc.constant<OriginChoice>({ allowed: true, headers: { 'x-lockit-client': 'web' } }) },
  { weight: 1, arbitrary: fc.constant<OriginChoice>({ allowed: true, headers: { origin: OWN_ORIGIN } }) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.constantFrom(
          'https://evil.example',
          'null',
          'http://localhost.evil.example',
          'http://localhost:8080',
          'https://localhost',
          'http://LOCALHOST.',
          ...HOSTILE_STRINGS.slice(0, 20),
        ),
        fc.boolean(),
      )
      .map(([origin, withHeader]): OriginChoice => ({
        allowed: false,
        headers: { origin, ...(withHeader ? { 'x-lockit-client': 'web' } : {}) },
      })),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom<OriginChoice>(
      { allowed: false, headers: {} },
      { allowed: false, headers: { 'x-lockit-client': 'WEB' } },
      { allowed: false, headers: { 'x-lockit-client': '' } },
    ),
  },
);

interface SessionChoice {
  valid: boolean;
  cookie: string | undefined;
}
function sessionArb(target: Target): fc.Arbitrary<SessionChoice> {
  const flipped = target.accessToken.slice(0, -1) + (target.accessToken.endsWith('A') ? 'B' : 'A');
  // Never the victim's real refresh token as a refresh cookie: refresh-token would rightly rotate it.
  const junk = (...lookalikes: string[]) =>
    fc.oneof(
      fc.constantFrom(...HOSTILE_STRINGS),
      fc.base64String({ minLength: 40, maxLength: 48 }),
      fc.constantFrom('A'.repeat(4096), ...lookalikes),
    );
  const cookieValue = (value: string) => encodeURIComponent(value.replace(/[\ud800-\udfff]/g, ''));
  return fc.oneof(
    { weight: 6, arbitrary: fc.constant({ valid: true, cookie: `lockit_access=${target.accessToken}` }) },
    { weight: 1, arbitrary: fc.constant({ valid: false, cookie: undefined }) },
    {
      weight: 2,
      arbitrary: junk(flipped, target.refreshToken, target.accessToken.toLowerCase(), `${target.accessToken}x`).map((value) => ({
        valid: false,
        cookie: `lockit_access=${cookieValue(value)}`,
      })),
    },
    {
      weight: 1,
      arbitrary: junk(target.accessToken, `${target.refreshToken}x`, target.refreshToken.toUpperCase()).map((value) => ({
        valid: false,
        cookie: `lockit_refresh=${cookieValue(value)}`,
      })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(
          'lockit_access',
          'lockit_access=',
          '=;=;',
          'lockit_access="unterminated',
          `Lockit_Access=${target.accessToken}`,
          `lockit_access =${target.accessToken}x`,
        )
        .map((cookie) => ({ valid: false, cookie })),
    },
  );
}

/** The admin cookie: mostly the operator's real one, else junk, a user's token in its place, or none. */
function adminSessionArb(target: Target): fc.Arbitrary<SessionChoice> {
  const flipped = target.adminToken.slice(0, -1) + (target.adminToken.endsWith('A') ? 'B' : 'A');
  const cookieValue = (value: string) => encodeURIComponent(value.replace(/[\ud800-\udfff]/g, ''));
  return fc.oneof(
    { weight: 6, arbitrary: fc.constant({ valid: true, cookie: `lockit_admin=${target.adminToken}` }) },
    { weight: 1, arbitrary: fc.constant({ valid: false, cookie: undefined }) },
    {
      weight: 2,
      arbitrary: fc
        .oneof(
          fc.constantFrom(...HOSTILE_STRINGS),
          fc.constantFrom(flipped, target.accessToken, target.adminToken.toLowerCase(), `${target.adminToken}x`),
        )
        .map((value) => ({ valid: false, cookie: `lockit_admin=${cookieValue(value)}` })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(
          `lockit_access=${target.accessToken}`,
          `Lockit_Admin=${target.adminToken}`,
          'lockit_admin',
          'lockit_admin=',
          `lockit_admin =${target.adminToken}x`,
        )
        .map((cookie) => ({ valid: false, cookie })),
    },
  );
}

interface ParamChoice {
  /** As it appears in the path (percent-encoded). */
  raw: string;
}
function paramArb(route: RouteUnderAttack, target: Target): fc.Arbitrary<ParamChoice> {
  const [own, others] =
    route.resource === 'folder'
      ? [target.ownFolderId, target.otherUsersFolderId]
      : route.resource === 'batch'
        ? [target.ownBatchId, target.otherUsersBatchId]
        : route.resource === 'document'
          ? // Two kinds with the same cap, so one body schema fits both.
            ['generator-history', 'health-settings']
          : route.resource === 'session'
            ? [target.ownSessionId, target.otherUsersSessionId]
            : route.resource === 'user'
              ? // Never a real account's id: a request the checks let through would act on it.
                [target.unknownUserId, target.unknownUserId.replace(/^./, (c) => (c === 'f' ? 'e' : 'f'))]
              : [target.ownEntryId, target.otherUsersEntryId];
  const encode = (value: string) => {
    try {
      return encodeURIComponent(value);
    } catch {
      return encodeURIComponent(value.replace(/[\ud800-\udfff]/g, '?'));
    }
  };
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom<ParamChoice>({ raw: own }, { raw: own.toUpperCase() }) },
    { weight: 1, arbitrary: fc.constant<ParamChoice>({ raw: others }) },
    { weight: 1, arbitrary: fc.uuid().map((raw): ParamChoice => ({ raw })) },
    {
      weight: 2,
      arbitrary: fc
        .oneof(fc.constantFrom(...HOSTILE_STRINGS), fc.string({ maxLength: 30 }))
        .map((value): ParamChoice => ({ raw: encode(value) })),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom<ParamChoice>(
        { raw: '%ZZ' },
        { raw: '%E0%A4%A' },
        { raw: '%' },
        { raw: 'a'.repeat(MAX_PARAM_LENGTH + 1) },
      ),
    },
  );
}

const hostileQueryArb = fc.oneof(
  { weight: 6, arbitrary: fc.constant('') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '?__proto__[isAdmin]=1',
      '?constructor[prototype][isAdmin]=1',
      "?id=1'%20OR%20'1'='1",
      '?&&&==&',
      `?q=${'a'.repeat(8_000)}`,
      '?%ZZ=%ZZ',
      '?username=admin&username=root',
    ),
  },
);

/** For routes that read `?revision=N`: mostly a plausible revision, often a broken one. */
const revisionQueryArb = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('?revision=1', '?revision=2', '?revision=99') },
  {
    weight: 3,
    arbitrary: fc.oneof(
      fc.constantFrom(
        '?revision=',
        '?revision=0',
        '?revision=-1',
        '?revision=1.5',
        '?revision=1e400',
        '?revision=2147483648',
        '?revision=9007199254740993',
        '?revision=abc',
        '?revision=1&revision=2',
        '?Revision=1',
        '?revision[]=1',
        '?revision=%ZZ',
      ),
      fc
        .oneof(fc.constantFrom(...HOSTILE_STRINGS), fc.string({ maxLength: 20 }))
        .map((value) => `?revision=${encodeURIComponent(value.replace(/[\ud800-\udfff]/g, '?'))}`),
    ),
  },
  { weight: 2, arbitrary: hostileQueryArb },
);

const extraHeadersArb: fc.Arbitrary<Record<string, string>> = fc.oneof(
  { weight: 5, arbitrary: fc.constant({}) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<Record<string, string>>(
      { 'x-forwarded-for': "1.1.1.1' OR 1=1" },
      { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.example' },
      { 'user-agent': 'A'.repeat(10_000) },
      { 'user-agent': '<script>alert(1)</script>' },
      { accept: 'text/html' },
      { 'accept-encoding': 'gzip;q=hostile' },
      { 'x-http-method-override': 'DELETE' },
    ),
  },
);

/** Every part of a request an attacker controls, for one route. */
export function hostileRequestArb(route: RouteUnderAttack, target: Target): fc.Arbitrary<HostileRequest> {
  return fc
    .record({
      origin: originArb,
      session: route.session === 'admin' ? adminSessionArb(target) : sessionArb(target),
      param: route.hasIdParam ? paramArb(route, target) : fc.constant(undefined),
      body: bodyArb(route),
      query: route.query ? revisionQueryArb : hostileQueryArb,
      extraHeaders: extraHeadersArb,
      lengthSkew: fc.constantFrom(0, 0, 0, 0, 0, 0, 0, 0, 1, -1, 1000),
    })
    .map(({ origin, session, param, body, query, extraHeaders, lengthSkew }): HostileRequest | undefined => {
      const headers: Record<string, string> = { ...extraHeaders, ...origin.headers };
      if (session.cookie !== undefined) headers.cookie = session.cookie;
      if (body.contentType !== undefined) headers['content-type'] = body.contentType;
      const payload = route.method === 'GET' ? undefined : body.payload;
      const bytes = payload === undefined ? 0 : Buffer.byteLength(payload);
      const skewed = lengthSkew !== 0 && bytes > 1 && bytes <= (route.bodyLimit ?? BODY_LIMIT) && isJson(body.contentType);
      const declaredBytes = skewed ? bytes + lengthSkew : bytes;
      if (skewed) headers['content-length'] = String(declaredBytes);
      const expected = expectedRefusal(route, {
        target,
        originAllowed: origin.allowed,
        sessionValid: session.valid,
        param: param?.raw,
        query,
        body: { ...body, payload },
        bytes,
        declaredBytes,
      });
      if (!expected) return undefined;
      return { method: route.method, url: `${route.path(param?.raw ?? '')}${query}`, headers, payload, expected };
    })
    .filter((request): request is HostileRequest => request !== undefined);
}
