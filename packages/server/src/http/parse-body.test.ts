import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HttpError } from './http-error';
import { parseBody } from './parse-body';

const schema = z.object({
  name: z.string().min(2),
  age: z.number().int().max(150),
  tags: z.array(z.string()).optional(),
  nested: z.object({ flag: z.boolean() }).optional(),
});

function messageFor(body: unknown): string {
  try {
    parseBody(schema, body);
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).statusCode).toBe(400);
    return (error as HttpError).message;
  }
  throw new Error('expected a failure');
}

describe('parseBody', () => {
  it('strips unknown fields', () => {
    expect(parseBody(schema, { name: 'ab', age: 3, admin: true })).toEqual({ name: 'ab', age: 3 });
  });

  it('names the field and the problem in plain words', () => {
    expect(messageFor({ age: 3 })).toBe('name is required');
    expect(messageFor({ name: 'a', age: 3 })).toBe('name must be at least 2 characters');
    expect(messageFor({ name: 'ab', age: 1.5 })).toBe('age must be a whole number');
    expect(messageFor({ name: 'ab', age: 151 })).toBe('age must be at most 150');
    expect(messageFor({ name: 'ab', age: '3' })).toBe('age must be a number');
    expect(messageFor({ name: 'ab', age: 3, tags: [1] })).toBe('tags.0 must be a string');
    expect(messageFor({ name: 'ab', age: 3, nested: { flag: 'yes' } })).toBe('nested.flag must be a boolean');
  });

  it('refuses a body that is not a JSON object', () => {
    for (const body of [undefined, null, [], 'text', 3]) expect(messageFor(body)).toBe('The request body must be a JSON object.');
  });
});
