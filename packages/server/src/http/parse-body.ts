import { z } from 'zod';
import { HttpError } from './http-error';

/**
 * Validates untrusted input against a contract schema. Unknown fields are stripped (zod's
 * default), so they can never reach the database. Failures become a 400 naming the field
 * and the problem, e.g. "username must be at least 3 characters".
 */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new HttpError(400, 'The request body must be a JSON object.');
  }
  return parseInput(schema, body);
}

/** Same as parseBody for any input (e.g. a path parameter wrapped in an object). */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input, { error: readableIssue });
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.map(String).join('.');
  throw new HttpError(400, field ? `${field} ${issue.message}` : capitalise(issue.message));
}

/** Messages for issues whose schema gives none; they follow the field name. */
function readableIssue(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is required';
      return `must be ${article(issue.expected)}`;
    case 'too_small':
      return issue.origin === 'string'
        ? `must be at least ${String(issue.minimum)} characters`
        : `must be at least ${String(issue.minimum)}`;
    case 'too_big':
      return issue.origin === 'string'
        ? `must be at most ${String(issue.maximum)} characters`
        : `must be at most ${String(issue.maximum)}`;
    case 'invalid_value':
      return `must be ${issue.values.map((value) => JSON.stringify(value)).join(' or ')}`;
    case 'invalid_format':
      return 'is not in the expected format';
    case 'not_multiple_of':
      return 'must be a whole number';
    default:
      return 'is not valid';
  }
}

function article(expected: string): string {
  if (expected === 'int') return 'a whole number';
  if (expected === 'object' || expected === 'array') return `an ${expected}`;
  return `a ${expected}`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1) + (text.endsWith('.') ? '' : '.');
}
