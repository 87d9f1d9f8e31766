import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { RouteName, RouteTableEntry } from '@lockit/contract/routes';

type Part = 'params' | 'query' | 'body';
type Entry<N extends RouteName> = Extract<RouteTableEntry, { name: N }>;
type Parsed<E, K extends Part> = E extends { [P in K]: infer S extends z.ZodType } ? z.output<S> : undefined;

/** A route's params, query and body as its route table entry's schemas parsed them. */
export interface RouteInput<N extends RouteName> {
  params: Parsed<Entry<N>, 'params'>;
  query: Parsed<Entry<N>, 'query'>;
  body: Parsed<Entry<N>, 'body'>;
}

interface CheckedInput {
  name: string;
  params: unknown;
  query: unknown;
  body: unknown;
}

const checked = new WeakMap<FastifyRequest, CheckedInput>();

/** Called by the edge check (route-table-validation.ts) once the input passed. */
export function keepRouteInput(request: FastifyRequest, input: CheckedInput): void {
  checked.set(request, input);
}

/**
 * The input of this request as the edge parsed it (unknown fields stripped, defaults and
 * transforms applied), so a handler neither parses it twice nor works on the raw body.
 */
export function routeInput<N extends RouteName>(request: FastifyRequest, name: N): RouteInput<N> {
  const input = checked.get(request);
  // Asking for another route's input is a bug in the handler: a 500, never unchecked input.
  if (input?.name !== name) throw new Error(`No checked input of route ${name} for this request.`);
  return input as unknown as RouteInput<N>;
}
