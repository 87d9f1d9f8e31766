/**
 * Import worker: reads and parses a picked file (JSON of 10,000 items, CSV, XML, a KDBX's
 * Argon2 and decryption, a 1PUX's inflation) off the page's main thread, so the tab never
 * freezes on a large or hostile file. One request per worker; the page ends it after.
 *
 * Security invariant: the file and its password live only in this worker's memory until it is
 * terminated; nothing is sent anywhere but back to the page.
 */
import { parseRequest } from './parse-file';
import type { ParseMessage, ParseRequest } from './parse-protocol';

interface WorkerScope {
  onmessage: ((event: MessageEvent<ParseRequest>) => void) | null;
  postMessage(message: ParseMessage): void;
}

const scope = self as unknown as WorkerScope;

scope.onmessage = (event) => {
  void parseRequest(event.data, (fraction) => scope.postMessage({ kind: 'progress', fraction })).then((message) =>
    scope.postMessage(message),
  );
};
