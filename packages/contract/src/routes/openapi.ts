import { z } from 'zod';
import { errorResponseSchema } from '../common';
import type { RouteEntry } from './route-entry';

export interface OpenApiOptions {
  title: string;
  version: string;
  /** The cookie names are the server's: the document names what the server really reads. */
  sessionCookie: string;
  adminCookie: string;
}

type JsonSchema = Record<string, unknown>;
type Io = 'input' | 'output';

const SECURITY_SCHEMES = { session: 'sessionCookie', admin: 'adminCookie' } as const;

/**
 * The route table as an OpenAPI 3.1 document. Its schemas are zod's own JSON Schema
 * (2020-12, the dialect 3.1 uses): requests as they may be sent (`io: 'input'`), answers as
 * they are sent. Refinements zod cannot express (a ciphertext's format) are not in it; the
 * server still applies them.
 */
export function buildOpenApiDocument(table: readonly RouteEntry[], options: OpenApiOptions): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const entry of table) {
    const path = entry.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    (paths[path] ??= {})[entry.method.toLowerCase()] = operation(entry);
  }
  return {
    openapi: '3.1.0',
    info: { title: options.title, version: options.version },
    paths,
    components: {
      securitySchemes: {
        [SECURITY_SCHEMES.session]: {
          type: 'apiKey',
          in: 'cookie',
          name: options.sessionCookie,
          description: 'The session cookie a sign-in sets (HttpOnly); renewed by POST /api/users/refresh-token.',
        },
        [SECURITY_SCHEMES.admin]: {
          type: 'apiKey',
          in: 'cookie',
          name: options.adminCookie,
          description: 'The admin session cookie POST /api/admin/sign-in sets (HttpOnly).',
        },
      },
    },
  };
}

function operation(entry: RouteEntry): Record<string, unknown> {
  const parameters = [...parametersOf(entry.params, 'path'), ...parametersOf(entry.query, 'query')];
  const security = entry.access === 'public' ? [] : [{ [SECURITY_SCHEMES[entry.access]]: [] }];
  return {
    operationId: entry.name,
    summary: entry.summary,
    security,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(entry.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchemaOf(entry.body, 'input') } } } }
      : {}),
    responses: responsesOf(entry),
  };
}

function responsesOf(entry: RouteEntry): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  for (const [status, schema] of Object.entries(entry.responses ?? {})) {
    responses[status] = {
      description: Number(status) < 400 ? 'Success' : 'Refused, with the current state',
      content: { 'application/json': { schema: jsonSchemaOf(schema, 'output') } },
    };
  }
  if (!Object.keys(responses).some((status) => status.startsWith('2'))) responses['200'] = { description: 'Success' };
  // Every refusal is `{ message }` saying why, in words a person can read.
  responses['4XX'] = {
    description: 'Refused: `message` says why',
    content: { 'application/json': { schema: jsonSchemaOf(errorResponseSchema, 'output') } },
  };
  return responses;
}

/** One parameter per property of an object schema (params or query). */
function parametersOf(schema: z.ZodType | undefined, where: 'path' | 'query'): Record<string, unknown>[] {
  if (!schema) return [];
  const json = jsonSchemaOf(schema, 'input');
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    schema: property,
  }));
}

function jsonSchemaOf(schema: z.ZodType, io: Io): JsonSchema {
  // Transforms and custom checks have no JSON Schema: `any` for them, not a thrown error.
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  delete json.$schema;
  return json;
}
