import fc from 'fast-check';
import { MAX_BODY_NESTING } from '../../src/http/json-nesting';
import { BODY_LIMIT, parsedOrNot, type BodyChoice, type RouteUnderAttack } from './refusal-model';
import { BROKEN_JSON, HOSTILE_KEYS, hostileValue, INVALID_UTF8 } from './hostile-values';

/**
 * The bodies of the hostile-input suite's requests (hostile-requests.ts puts the rest of each
 * request around them): a route's valid body broken one way at a time, damaged or oversized
 * text, and JSON sent under content types the API does not take.
 */

const JSON_TYPES = ['application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'application/json;charset=UTF-8'];
const OTHER_TYPES = [
  'text/plain',
  'text/plain;charset=UTF-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/jsonp',
  'text/html',
];

function jsonBody(value: unknown, contentType = 'application/json'): BodyChoice {
  const text = JSON.stringify(value);
  return text === undefined
    ? { payload: undefined, contentType, parsed: { value: undefined } }
    : { payload: text, contentType, ...parsedOrNot(text) };
}

/** Mutations of a valid body: at least one that breaks it, and extra fields on top. */
function mutatedBodyArb(valid: Record<string, unknown>, nestedFields: string[]): fc.Arbitrary<Record<string, unknown>> {
  const fields = [...Object.keys(valid), ...nestedFields];
  const breaking = fc.oneof(
    fc.record({ op: fc.constant('delete' as const), field: fc.constantFrom(...fields) }),
    fc.record({ op: fc.constant('set' as const), field: fc.constantFrom(...fields), value: hostileValue }),
  );
  const extra = fc.record({
    op: fc.constant('set' as const),
    field: fc.constantFrom(...HOSTILE_KEYS),
    value: fc.jsonValue({ maxDepth: 2 }),
  });
  return fc
    .tuple(fc.array(breaking, { minLength: 1, maxLength: 3 }), fc.array(extra, { maxLength: 3 }))
    .map(([breaks, extras]) => {
      const body = structuredClone(valid);
      for (const change of [...breaks, ...extras]) {
        const path = change.field.split('.');
        let holder: Record<string, unknown> = body;
        for (const [n, step] of path.slice(0, -1).entries()) {
          const next = holder[step];
          // `entries.0.id` steps into the array; any other path through an array replaces it.
          const intoArray = Array.isArray(next) && /^\d+$/.test(path[n + 1]!);
          if (!intoArray && (next === null || typeof next !== 'object' || Array.isArray(next))) holder[step] = {};
          holder = holder[step] as Record<string, unknown>;
        }
        const last = path.at(-1)!;
        if (change.op === 'delete') delete holder[last];
        else Object.defineProperty(holder, last, { value: change.value, enumerable: true, writable: true, configurable: true });
      }
      return body;
    });
}

/** Text-level damage to a JSON text: invalid UTF-8 inside or outside strings, truncation, poison keys. */
function damagedTextArb(text: string): fc.Arbitrary<BodyChoice> {
  return fc.oneof(
    fc.tuple(fc.constantFrom(...INVALID_UTF8), fc.nat()).map(([bytes, at]): BodyChoice => {
      const quote = text.indexOf('"', at % Math.max(1, text.length));
      const cut = quote === -1 ? text.length - 1 : quote + 1; // just inside a string when there is one
      const payload = Buffer.concat([Buffer.from(text.slice(0, cut)), bytes, Buffer.from(text.slice(cut))]);
      return { payload, contentType: 'application/json', ...parsedOrNot(payload) };
    }),
    fc.nat().map((at): BodyChoice => ({
      payload: text.slice(0, at % Math.max(1, text.length)),
      contentType: 'application/json',
      ...parsedOrNot(text.slice(0, at % Math.max(1, text.length))),
    })),
    fc
      .constantFrom('{"__proto__":{"isAdmin":true},', '{"constructor":{"prototype":{"isAdmin":true}},')
      .map((prefix): BodyChoice => ({
        payload: prefix + text.slice(1),
        contentType: 'application/json',
        ...parsedOrNot(prefix + text.slice(1)),
      })),
    fc.constant<BodyChoice>({ payload: `\ufeff${text}`, contentType: 'application/json', ...parsedOrNot(`\ufeff${text}`) }),
  );
}

export function bodyArb(route: RouteUnderAttack): fc.Arbitrary<BodyChoice> {
  const base = route.body?.valid ?? { message: 'hello' };
  const mutated = mutatedBodyArb(base, route.nestedFields ?? []);
  const oversized: BodyChoice = {
    payload: JSON.stringify({ ...base, padding: 'x'.repeat(route.bodyLimit ?? BODY_LIMIT) }),
    contentType: 'application/json',
  };
  // Around the nesting limit (parsed up to it, refused past it) and far past it.
  const depths = fc.oneof(
    fc.integer({ min: MAX_BODY_NESTING - 2, max: MAX_BODY_NESTING + 2 }),
    fc.integer({ min: 1_000, max: 100_000 }),
  );
  const deep = fc.tuple(depths, fc.boolean()).map(([depth, arrays]): BodyChoice => {
    const text = arrays ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    return { payload: text, contentType: 'application/json', ...parsedOrNot(text) };
  });
  return fc.oneof(
    {
      weight: route.body ? 10 : 2,
      arbitrary: fc.tuple(mutated, fc.constantFrom(...JSON_TYPES)).map(([value, type]) => jsonBody(value, type)),
    },
    { weight: 3, arbitrary: mutated.chain((value) => damagedTextArb(JSON.stringify(value))) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((value) => jsonBody(value)) },
    {
      weight: 2,
      arbitrary: fc
        .constantFrom(...BROKEN_JSON)
        .map((payload): BodyChoice => ({ payload, contentType: 'application/json', ...parsedOrNot(payload) })),
    },
    { weight: 1, arbitrary: deep },
    {
      weight: 1,
      arbitrary: fc.uint8Array({ minLength: 1, maxLength: 64 }).map((bytes): BodyChoice => ({
        payload: Buffer.from(bytes),
        contentType: 'application/json',
        ...parsedOrNot(Buffer.from(bytes)),
      })),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom<BodyChoice>(
        { payload: '', contentType: 'application/json', parsed: { value: undefined } },
        { payload: '   \n', contentType: 'application/json', parsed: { value: undefined } },
        { payload: undefined, contentType: undefined, parsed: { value: undefined } },
      ),
    },
    { weight: 1, arbitrary: fc.constant(oversized) },
    ...(route.bodyVariants
      ? [{ weight: 4, arbitrary: fc.constantFrom(...route.bodyVariants).map((value) => jsonBody(value)) }]
      : []),
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.constantFrom(...OTHER_TYPES, undefined),
          fc.constantFrom(
            JSON.stringify(base),
            'username=abc&password=x',
            '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--',
          ),
        )
        .map(([contentType, payload]): BodyChoice => ({ payload, contentType })),
    },
  );
}
