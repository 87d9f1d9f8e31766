/**
 * The one test toolkit of the server tests, e2e and the benches (Chromium is its own export,
 * `@lockit/test-support/chromium`, so suites without a browser never load playwright-core; the
 * Pwned Passwords stand-in is too, `@lockit/test-support/pwned-stand-in`, the one export the web
 * app's tests may use).
 */
export { freePort } from './free-port';
export { repoRoot, webDist } from './repo-paths';
export { startNodeProcess, type NodeProcess, type NodeProcessOptions } from './node-process';
export { startServerProcess, type ServerProcess, type ServerProcessOptions } from './server-process';
export { adminQuery, createServerDatabase, PG_URL, type DatabaseKind, type ServerDatabase } from './server-database';
export { startSmtpSink, type CaughtMail, type SmtpSink } from './smtp-sink';
export { LogCodeInbox, type CodeInbox } from './code-inbox';
export { ApiClient, type ApiAnswer, type ApiBody, type ApiRequestOptions } from './api-client';
export {
  createBody,
  FLOOR_KDF,
  logInWithKeys,
  makeKeyMaterial,
  newAccount,
  signInOverHttp,
  signUpOverHttp,
  uniqueName,
  type KeyMaterial,
  type NewAccountOptions,
  type TestAccount,
} from './accounts';
export {
  addEntries,
  addSealed,
  loginOverview,
  openWireEntry,
  openWireItem,
  sealEntry,
  sealItem,
  sealUnboundItem,
  vaultKeyOf,
  type PlainEntry,
  type PlainItem,
  type SealedEntry,
} from './entries';
export { createVerifiedAccount, type VerifiedAccount, type VerifiedAccountOptions } from './verified-account';
export {
  startTamperingProxy,
  type BytesRule,
  type InterceptedResponse,
  type RecordedRequest,
  type RequestRule,
  type ResponseRule,
  type TamperingProxy,
} from './tampering-proxy';
export { eventSourceOf, recordEventStream, type RecordedEventStream, type StreamEvent } from './event-stream';
