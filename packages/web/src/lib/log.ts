import type { CoreLog } from '@lockit/client-core';
import { ApiError, NetworkError, NoSessionError, UnexpectedResponseError } from './api-errors';

/**
 * The app's only logging. It names what happened with the server's message, or a generic
 * sentence; it never receives request bodies, keys or passwords, so nothing secret can reach
 * the console. Failures that the spec says are "only logged" go through here.
 */
export function describeFailure(error: unknown): string {
  if (error instanceof NoSessionError) return error.message;
  if (error instanceof ApiError) return error.serverMessage ?? `Request failed with status ${error.status}.`;
  if (error instanceof NetworkError) return 'Network error: the server could not be reached.';
  if (error instanceof UnexpectedResponseError) return error.message;
  return 'Unexpected error.';
}

export function logInfo(context: string, detail: string): void {
  console.info(`[Lockit] ${context}: ${detail}`);
}

export function logFailure(context: string, error: unknown): void {
  console.warn(`[Lockit] ${context} failed: ${describeFailure(error)}`);
}

/** This log as the client core's platform takes it. */
export const coreLog: CoreLog = { info: logInfo, failure: logFailure };
