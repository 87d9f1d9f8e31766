/** A request with a raw body (an upload part) or for a raw answer (a download). */
export interface BinaryRequest {
  method: 'GET' | 'PUT' | 'POST';
  url: string;
  headers: Readonly<Record<string, string>>;
  body?: Uint8Array;
}

/** An answer whose body is read as it arrives, never as a whole. */
export interface BinaryResponse {
  status: number;
  headers: { get(name: string): string | null };
  /** The body as it arrives; read it or `text()`, not both. */
  body: AsyncIterable<Uint8Array> | null;
  text(): Promise<string>;
}

/**
 * How a platform sends the raw requests of attachments, with its session (cookies) like its
 * JSON Transport: a page's fetch with `credentials: 'include'` (its ReadableStream read through
 * a reader, since Chromium's streams are not async-iterable), Node's fetch over a cookie jar.
 * Rejects only when no answer came.
 */
export type BinaryTransport = (request: BinaryRequest) => Promise<BinaryResponse>;
