import { api } from './http';

/**
 * POST /api/users/refresh-token: trades the refresh cookie for a fresh access cookie (the
 * client core's refresh: concurrent callers share one request). Resolves with the server's
 * message; rejects with ApiError (e.g. 401: no session), NoSessionError or NetworkError.
 */
export function refreshToken(): Promise<string> {
  return api.refresh();
}
