import type { RouteName, RouteTableEntry } from '@lockit/contract/routes';
import type { z } from 'zod';

/** The route table's entry of one route, with its own schemas' types. */
export type RouteOf<N extends RouteName> = Extract<RouteTableEntry, { name: N }>;

type InputOf<S> = S extends z.ZodType ? z.input<S> : never;
type OrUnknown<T> = [T] extends [never] ? unknown : T;

/** The statuses a call succeeds with. */
export type SuccessStatus = 200 | 201 | 202 | 204;

/**
 * What a call of route N takes: the path's params, the query and the JSON body exactly as the
 * route table's schemas accept them (a route without one takes none), and headers of Lockit's
 * own (e.g. the vault state a write carries).
 */
export type RouteInput<N extends RouteName> = (RouteOf<N> extends { params: infer P }
  ? { params: InputOf<P> }
  : { params?: never }) &
  (RouteOf<N> extends { query: infer Q } ? { query?: InputOf<Q> } : { query?: never }) &
  (RouteOf<N> extends { body: infer B } ? { body: InputOf<B> } : { body?: never }) & {
    headers?: Readonly<Record<string, string>>;
  };

/** What a call of route N answers: the output of its 2xx schema(s) in the route table. */
export type RouteAnswer<N extends RouteName> = OrUnknown<
  RouteOf<N> extends { responses: infer R }
    ? { [S in keyof R & SuccessStatus]: R[S] extends z.ZodType ? z.output<R[S]> : never }[keyof R & SuccessStatus]
    : never
>;

/** True when input is optional for route N: no params and no body. */
export type InputOptional<N extends RouteName> = RouteOf<N> extends { params: unknown } | { body: unknown } ? false : true;
