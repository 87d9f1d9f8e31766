import fc from 'fast-check';

/** Strings that have broken other servers: SQL and HTML meta-characters, odd Unicode, look-alikes. */
export const HOSTILE_STRINGS = [
  "' OR '1'='1",
  "'; DROP TABLE users; --",
  '" OR ""="',
  '1; SELECT pg_sleep(5)--',
  "admin'--",
  "') OR ('a'='a",
  "x' UNION SELECT auth_hash, salt FROM users--",
  "1' AND (SELECT COUNT(*) FROM sqlite_master) > 0 --",
  '%27%20OR%201%3D1',
  '\\',
  "\\'",
  '`',
  ';',
  '--',
  '/*',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '"><svg onload=alert(1)>',
  'javascript:alert(1)',
  '{{7*7}}',
  '${7*7}',
  '<!--',
  ']]>',
  '\u0000',
  'user\u0000name',
  '\u202euser',
  '\ud800',
  'a\udfffb',
  '\ufeffuser',
  'us\u200ber',
  'ｕｓｅｒ＿ｎａｍｅ',
  'İstanbul',
  'straße',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  '😀😀😀',
  '\r\n\r\nHTTP/1.1 200 OK',
  '\n',
  ' ',
  '',
  '   \t ',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'null',
  'undefined',
  'NaN',
  'true',
  '0',
  '-1',
  '1e309',
  '0x41',
  '../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '%00',
  '%ZZ',
  '$where',
  '{"$gt":""}',
  'v1.AAAAAAAAAAAAAAAA.AAAA',
  'v2.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA',
  'A'.repeat(42),
  'A'.repeat(44),
  '3f2b8c1e-7a4d-4f6b-9c2e-1a2b3c4d5e6f',
  'argon2id',
];

/** Field names a mass-assignment attempt would try, and names that collide with Object.prototype. */
export const HOSTILE_KEYS = [
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'isAdmin',
  'admin',
  'role',
  'id',
  '_id',
  'user_id',
  'userId',
  'verified_at',
  'verifiedAt',
  'auth_hash',
  'authHash',
  'revision',
  'created_at',
  'attempts',
  'Username',
  'USERNAME',
  '',
  ' ',
  "'; --",
  '<b>',
];

/** A long string built by repetition (cheap to make, up to `max` characters). */
const longString = (max: number) =>
  fc
    .tuple(fc.constantFrom('A', 'x', "'", '<', '😀', '\u0000', 'é', 'v1.'), fc.integer({ min: 200, max }))
    .map(([unit, n]) => unit.repeat(Math.ceil(n / unit.length)));

/** Deeply nested arrays or objects, as a value. */
const deepValue = fc.integer({ min: 10, max: 2_000 }).chain((depth) =>
  fc.constantFrom<'array' | 'object'>('array', 'object').map((kind) => {
    let value: unknown = 1;
    for (let i = 0; i < depth; i += 1) value = kind === 'array' ? [value] : { a: value };
    return value;
  }),
);

/** A JSON value that no field of the API accepts as it is, or rarely does. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: longString(100_000) },
  {
    weight: 2,
    arbitrary: fc.oneof(
      fc.integer(),
      fc.double(),
      fc.constantFrom(0, -0, 1.5, -1, 2 ** 31, 2 ** 53 + 1, -(2 ** 63), 1e308, 19_455, 1_048_577, 0.1),
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom(true, false, null) },
  { weight: 1, arbitrary: fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 5 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.constantFrom(...HOSTILE_KEYS), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }) },
  { weight: 1, arbitrary: deepValue },
);

/** Bytes that are not UTF-8: a stray continuation, an overlong slash, a surrogate, a 5-byte form. */
export const INVALID_UTF8 = [
  Buffer.from([0xff]),
  Buffer.from([0xc3, 0x28]),
  Buffer.from([0xc0, 0xaf]),
  Buffer.from([0xed, 0xa0, 0x80]),
  Buffer.from([0xf8, 0x88, 0x80, 0x80, 0x80]),
  Buffer.from([0xe2, 0x82]),
  Buffer.from([0x80, 0x80, 0x80]),
];

/** Texts that are not JSON, or that Fastify refuses as prototype poisoning. */
export const BROKEN_JSON = [
  '{',
  '}',
  '{"username": "a",',
  "{'username': 'abc'}",
  '{username: "abc"}',
  '{"username": "abc",}',
  '{"username": "abc"} trailing',
  '{"username": NaN}',
  '{"username": undefined}',
  '{"a": 1 /* comment */}',
  '// comment\n{}',
  '{"a": 0x10}',
  '{"a": 01}',
  '{"a": "\\u12"}',
  '{"a": "\\x41"}',
  '{"a": "line\nbreak"}',
  '[1, 2',
  'nul',
  'tru',
  '"unterminated',
  '{"__proto__": {"isAdmin": true}}',
  '{"a": {"__proto__": {"polluted": 1}}}',
  '{"constructor": {"prototype": {"isAdmin": true}}}',
  '{"username": "abc", "\\u005f_proto__": {"x": 1}}',
  '\u0000{}',
  '<?xml version="1.0"?><a/>',
  'username=abc&password=def',
];
