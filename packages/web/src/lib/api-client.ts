import { ApiError, UnexpectedResponseError } from './api-errors';
import { send, type HttpMethod } from './http';
import { refreshToken } from './refresh-token';

/** The part of a contract (zod) schema the client needs: a safe parse. */
export interface ResponseSchema<T> {
  safeParse(data: unknown): { success: true; data: T } | { success: false };
}

export interface ApiRequest<T> {
  method: HttpMethod;
  body?: unknown;
  /** The contract's schema for the 2xx answer; anything else is an UnexpectedResponseError. */
  schema: ResponseSchema<T>;
  /**
   * A call that needs the session. On a 401 the client asks for a fresh access token once
   * (POST refresh-token) and repeats the call once; a second 401 is the caller's to handle.
   */
  protectedCall?: boolean;
  /** A call whose success is one exact status (the spec's verify-code): any other is an ApiError. */
  successStatus?: number;
}

/** Sends one API operation and validates its answer against the contract. */
export async function apiRequest<T>(path: string, request: ApiRequest<T>): Promise<T> {
  const answer = await sendWithRefresh(path, request);
  if (request.successStatus !== undefined && answer.status !== request.successStatus) {
    throw new ApiError(answer.status, undefined, answer.body);
  }
  const parsed = request.schema.safeParse(answer.body);
  if (!parsed.success) throw new UnexpectedResponseError(answer.status);
  return parsed.data;
}

async function sendWithRefresh(path: string, request: ApiRequest<unknown>) {
  try {
    return await send(request.method, path, request.body);
  } catch (error) {
    if (!request.protectedCall || !(error instanceof ApiError) || error.status !== 401) throw error;
    try {
      await refreshToken();
    } catch {
      // No session to refresh: the original 401 is the answer.
      throw error;
    }
    return send(request.method, path, request.body);
  }
}
