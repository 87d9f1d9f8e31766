import { CLIENT_HEADER, CLIENT_HEADER_VALUE } from '@lockit/contract/paths';
import { apiBaseUrl } from '@/config/env';
import { ApiError, NetworkError } from './api-errors';
import { loadContract } from './contract';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface HttpAnswer {
  status: number;
  /** Parsed JSON, or null when the body is empty or not JSON. */
  body: unknown;
  /** The answer's headers (cross-origin, only those the server exposes). */
  headers: Headers;
}

/**
 * One HTTP exchange with the API, nothing more: cookies always travel (`credentials:
 * 'include'`), every request carries the client header the server's CSRF check wants, and a
 * non-2xx status becomes an ApiError. Request bodies are never logged.
 */
export async function send(
  method: HttpMethod,
  path: string,
  body?: unknown,
  extraHeaders?: Readonly<Record<string, string>>,
): Promise<HttpAnswer> {
  const headers: Record<string, string> = { ...extraHeaders, [CLIENT_HEADER]: CLIENT_HEADER_VALUE, accept: 'application/json' };
  const init: RequestInit = { method, headers, credentials: 'include' };
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  // Loaded beside the request, so that an error answer is read as soon as it arrives (and the
  // caller's schema is ready). A failed load surfaces below, where it is awaited, if at all.
  const contract = loadContract();
  contract.catch(() => undefined);
  let response: Response;
  try {
    response = await fetch(`${apiBaseUrl}${path}`, init);
  } catch {
    throw new NetworkError(browserOffline());
  }
  const parsed = await readJson(response);
  if (!response.ok) {
    const { errorResponseSchema } = await contract;
    const message = errorResponseSchema.safeParse(parsed);
    throw new ApiError(
      response.status,
      message.success ? message.data.message : undefined,
      parsed,
      retryAfterSeconds(response.headers.get('retry-after')),
    );
  }
  return { status: response.status, body: parsed, headers: response.headers };
}

async function readJson(response: Response): Promise<unknown> {
  try {
    const text = await response.text();
    return text === '' ? null : (JSON.parse(text) as unknown);
  } catch {
    return null;
  }
}

/** False only when the browser knows it has no network; true where it cannot tell. */
export function browserOffline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}

/**
 * Retry-After as whole seconds (RFC 9110: a number of seconds or an HTTP date), at least 1;
 * undefined when absent or unreadable. Cross-origin, the server must expose the header.
 */
export function retryAfterSeconds(header: string | null, now = Date.now()): number | undefined {
  if (header === null) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Math.max(1, Number(text));
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(1, Math.ceil((at - now) / 1000));
}
