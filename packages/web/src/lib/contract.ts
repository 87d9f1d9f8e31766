/**
 * The contract's schemas, loaded on demand. They bring zod and part of @lockit/crypto, about
 * 25 kB of gzip that the first paint of a page does not need: code in the first-paint graph
 * (the app shell, Home) imports `@lockit/contract/paths` statically and this loader for the
 * schemas, so they arrive with the first API answer there is to check. Lazy pages import
 * `@lockit/contract` directly; architecture.test.ts keeps the first-paint graph free of it.
 */
export type Contract = typeof import('@lockit/contract');

/** The part of a contract (zod) schema the client needs: a safe parse. */
export interface ResponseSchema<T> {
  safeParse(data: unknown): { success: true; data: T } | { success: false };
}

export function loadContract(): Promise<Contract> {
  return import('@lockit/contract');
}
