import { ApiError, NoSessionError, UnexpectedResponseError } from './api-errors';
import { loadContract, type Contract, type ResponseSchema } from './contract';
import { send, type HttpMethod } from './http';
import { refreshToken } from './refresh-token';
import { maybeSignedIn } from './session-hint';

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

/** Sends one API operation and validates its answer against the contract. */
export async function apiRequest<T>(path: string, request: ApiRequest<T>): Promise<T> {
  return (await apiExchange(path, request)).data;
}

/** As apiRequest, with the answer's headers (e.g. the vault state the list answer carries). */
export async function apiExchange<T>(path: string, request: ApiRequest<T>): Promise<{ data: T; headers: Headers }> {
  const answer = await sendWithRefresh(path, request);
  if (request.successStatus !== undefined && answer.status !== request.successStatus) {
    throw new ApiError(answer.status, undefined, answer.body);
  }
  // Only once there is an answer to check: a call that was never sent loads nothing. `send`
  // has already started the load, so this waits for no extra round trip.
  const { schema } = request;
  const checker = typeof schema === 'function' ? schema(await loadContract()) : schema;
  const parsed = checker.safeParse(answer.body);
  if (!parsed.success) throw new UnexpectedResponseError(answer.status);
  return { data: parsed.data, headers: answer.headers };
}

async function sendWithRefresh(path: string, request: ApiRequest<unknown>) {
  if (request.protectedCall && !maybeSignedIn()) throw new NoSessionError();
  try {
    return await send(request.method, path, request.body, request.headers);
  } catch (error) {
    if (!request.protectedCall || !(error instanceof ApiError) || error.status !== 401) throw error;
    try {
      await refreshToken();
    } catch {
      // No session to refresh: the original 401 is the answer.
      throw error;
    }
    return send(request.method, path, request.body, request.headers);
  }
}
