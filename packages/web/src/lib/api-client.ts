import { loadContract, type Contract, type ResponseSchema } from './contract';
import { api, type HttpMethod } from './http';

export interface ApiRequest<T> {
  method: HttpMethod;
  body?: unknown;
  /**
   * The contract's schema for the 2xx answer; anything else is an UnexpectedResponseError.
   * Code in the first-paint graph passes a function of the contract instead, which is
   * loaded with the call (see contract.ts).
   */
  schema: ResponseSchema<T> | ((contract: Contract) => ResponseSchema<T>);
  /**
   * A call that needs the session. Not sent when this browser surely has none (a
   * NoSessionError, status 401, instead). On a 401 the client asks for a fresh access token
   * once (POST refresh-token) and repeats the call once; a second 401 is the caller's to handle.
   */
  protectedCall?: boolean;
  /** A call whose success is one exact status (the spec's verify-code): any other is an ApiError. */
  successStatus?: number;
  /** Headers of Lockit's own the operation carries (e.g. the vault state of a write). */
  headers?: Readonly<Record<string, string>>;
}

/** Sends one API operation by path and validates its answer against the contract. */
export async function apiRequest<T>(path: string, request: ApiRequest<T>): Promise<T> {
  return (await apiExchange(path, request)).data;
}

/** As apiRequest, with the answer's headers (e.g. the vault state the list answer carries). */
export async function apiExchange<T>(
  path: string,
  request: ApiRequest<T>,
): Promise<{ data: T; headers: { get(name: string): string | null } }> {
  const { schema } = request;
  const answer = await api.request(path, {
    ...request,
    schema: typeof schema === 'function' ? async () => schema(await loadContract()) : schema,
  });
  return { data: answer.body, headers: answer.headers };
}
