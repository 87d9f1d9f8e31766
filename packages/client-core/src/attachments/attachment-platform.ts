import type { ApiClient } from '../http/api-client';
import type { BinaryTransport } from './binary-transport';

/** What the attachment calls need from their platform. */
export interface AttachmentPlatform {
  /** The JSON calls (list, create, finish, rename, delete), by route name. */
  api: ApiClient;
  /** The raw calls (upload parts, download). */
  binary: BinaryTransport;
  /** Where the API is: '' for the page's own origin, as the ApiClient's baseUrl. */
  baseUrl: string;
}

/** A file as the platform hands it over: its name, type and size, and its bytes as they are read. */
export interface AttachmentSource {
  name: string;
  type: string;
  size: number;
  /** The bytes, in pieces of any size (a Blob's stream, a file read in Node). Read once. */
  stream(): AsyncIterable<Uint8Array>;
}
