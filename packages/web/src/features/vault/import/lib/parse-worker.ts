/**
 * Import worker: reads and parses a picked file (JSON of 10,000 items, CSV, XML, a KDBX's
 * Argon2 and decryption, a 1PUX's inflation) off the page's main thread, so the tab never
 * freezes on a large or hostile file. One request per worker; the page ends it after.
 *
 * Security invariant: the file and its password live only in this worker's memory until it is
 * terminated; nothing is sent anywhere but back to the page.
 */
import { serveJobs, type WorkerScope } from '@lockit/client-core';
import { parseRequest } from './parse-file';
import type { ParseAnswer, ParseRequest } from './parse-protocol';

// Events are the parse's progress (a fraction); the answer is the result or its error as data.
serveJobs<ParseRequest, ParseAnswer, number>(self as unknown as WorkerScope, async (request, emit) => ({
  answer: await parseRequest(request, emit),
}));
