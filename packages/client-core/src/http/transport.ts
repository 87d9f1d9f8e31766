/** One request as the client core sends it: a full URL, headers, and a JSON text body if any. */
export interface TransportRequest {
  method: string;
  url: string;
  headers: Readonly<Record<string, string>>;
  body?: string;
}

/** The part of a fetch Response the core reads. */
export interface TransportResponse {
  status: number;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
}

/**
 * How a platform sends a request: a page's fetch with `credentials: 'include'`, an extension's
 * fetch, or Node's fetch over a cookie jar (the command line). The core never reaches for a
 * global fetch: every client hands its own in.
 *
 * Rejects only when no answer came (offline, DNS, reset); any status is an answer.
 */
export type Transport = (request: TransportRequest) => Promise<TransportResponse>;
