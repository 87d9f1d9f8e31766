import type { Generated, Kysely, Transaction } from 'kysely';

/**
 * Table shapes, portable across SQLite and PostgreSQL: text ids, epoch-millisecond bigint
 * times (the pg pool parses int8 as number), text for base64url values and ciphertexts.
 */
export interface UsersTable {
  id: string;
  username: string;
  /** NFKC + lower case; unique, so names differing only in case or width collide. */
  username_folded: string;
  email: string;
  email_folded: string;
  fullname: string;
  /** Argon2id(authKey). Never the authKey, never the master password. */
  auth_hash: string;
  kdf_algorithm: string;
  kdf_memory_kib: number;
  kdf_iterations: number;
  kdf_parallelism: number;
  salt: string;
  /** The vault key wrapped by the client; the server cannot unwrap it. */
  protected_key: string;
  verified_at: number | null;
  created_at: number;
  updated_at: number;
  /** Bumped with every entry write, in the same transaction: names one state of the vault. */
  vault_revision: Generated<number>;
}

export interface VerificationCodesTable {
  user_id: string;
  /** HMAC-SHA-256(server secret, user id and code). */
  code_hash: string;
  expires_at: number;
  attempts: number;
  sent_at: number;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  /** SHA-256 of the access token; the token itself is only ever in the cookie. */
  access_hash: string;
  access_expires_at: number;
  refresh_hash: string;
  refresh_expires_at: number;
  absolute_expires_at: number;
  user_agent: string | null;
  created_at: number;
  last_used_at: number;
}

export interface RetiredRefreshTokensTable {
  token_hash: string;
  session_id: string;
  retired_at: number;
}

export interface EntriesTable {
  /** Made by the client: every field's ciphertext is bound to it. */
  id: string;
  user_id: string;
  service_name: string;
  username: string;
  password: string;
  url: string | null;
  notes: string | null;
  revision: number;
  created_at: number;
  updated_at: number;
}

export interface Database {
  users: UsersTable;
  verification_codes: VerificationCodesTable;
  sessions: SessionsTable;
  retired_refresh_tokens: RetiredRefreshTokensTable;
  entries: EntriesTable;
}

export type Db = Kysely<Database>;
/** What a repository method runs on: the database, or a transaction the caller opened. */
export type Executor = Kysely<Database> | Transaction<Database>;
