/**
 * `@lockit/server/internals`: what benches and tests may use beyond the app itself. Benches
 * seed accounts with the server's own Argon2id hash, time exactly what sign-in verifies, and
 * explain the SQL the repositories send. Nothing here is part of the HTTP API; the app is
 * the main export (`@lockit/server`).
 */
export { hashAuthKey, verifyAuthKey } from './auth/password-hashing';
export { createRepositories } from './db/repositories/index';
export { hashAdminToken } from './admin/admin-token';
export type { Database } from './db/schema';
