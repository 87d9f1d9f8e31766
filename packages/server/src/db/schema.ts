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
  /** The generation protected_key was wrapped for: 0 until the first password change, then +1 each (migration 0012). */
  key_generation: Generated<number>;
  /** Which vault key, counted by key rotations; bound into every wrap of it by the browser (migration 0016). */
  key_epoch: Generated<number>;
  verified_at: number | null;
  created_at: number;
  updated_at: number;
  /** Bumped with every entry or folder write, in the same transaction: names one state of the vault. */
  vault_revision: Generated<number>;
  /** Set by an operator (lockit-admin or the admin page): the account cannot sign in. Null: active. */
  disabled_at: number | null;
  /** The last sign-in or session use, written at most once a minute per session. */
  last_seen_at: number | null;
  /** The TOTP seed sealed under the server secret's TOTP key; null: TOTP off (migration 0010). */
  totp_secret: string | null;
  totp_enabled_at: number | null;
  /** The time step of the last code accepted: a code of this step or earlier is refused. */
  totp_last_step: number | null;
  /** A seed being enrolled (sealed like totp_secret) until a code confirms it, and its expiry. */
  totp_pending_secret: string | null;
  totp_pending_expires_at: number | null;
  /** Raised when factors change or the password does: forgets every remembered browser. */
  two_factor_epoch: Generated<number>;
  /**
   * The vault's integrity state as the browser last sent it (decision 0053), opaque here: the
   * server cannot make or check one. Null: none yet (migration 0014).
   */
  vault_state: string | null;
  /** Its counter: every write of the live set must name exactly this + 1. 0: no state yet. */
  vault_state_counter: Generated<number>;
  /** The lowest change cursor still answered in full (migration 0017); below it: reload. */
  change_floor: Generated<number>;
}

/** One single-use recovery code: SHA-256 of the code, never the code. */
export interface RecoveryCodesTable {
  id: string;
  user_id: string;
  code_hash: string;
  created_at: number;
  used_at: number | null;
}

/** A security key or passkey (WebAuthn), by @simplewebauthn/server's registration result. */
export interface WebauthnCredentialsTable {
  id: string;
  user_id: string;
  /** base64url, unique across the server. */
  credential_id: string;
  /** base64url COSE public key. */
  public_key: string;
  counter: number;
  /** JSON array of transports, or null. */
  transports: string | null;
  /** The owner's name for it ("YubiKey 5", "Phone"). */
  name: string;
  /** 'singleDevice' | 'multiDevice'. */
  device_type: string;
  /** 1 when the credential is backed up (synced passkey), else 0. */
  backed_up: number;
  /** The vault key wrapped under this credential's PRF output (sign-in and unlock); null: second factor only. */
  unlock_key: string | null;
  /** The PRF input (base64url) the unlock key was wrapped with. */
  unlock_salt: string | null;
  /** 1: a passkey, which may sign in alone; 0: a security key, a second step only (migration 0013). */
  signs_in: number;
  created_at: number;
  last_used_at: number | null;
}

/** A correct password awaiting its second factor. Only the token's SHA-256 is stored. */
export interface PendingSignInsTable {
  id: string;
  user_id: string;
  token_hash: string;
  /** 1 when the browser carried a valid device cookie for this account (no new-browser mail). */
  known_device: number;
  address: string | null;
  user_agent: string | null;
  /** The WebAuthn challenge issued for this sign-in, if a security key was asked for. */
  webauthn_challenge: string | null;
  failures: Generated<number>;
  /** 1 once the "second factor failed" mail went out for this sign-in. */
  failure_mailed: Generated<number>;
  created_at: number;
  expires_at: number;
}

/** One WebAuthn ceremony's challenge: registration (user set) or passkey sign-in (user null). */
export interface WebauthnChallengesTable {
  id: string;
  user_id: string | null;
  purpose: string;
  challenge: string;
  created_at: number;
  expires_at: number;
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
  /** The client address at sign-in, and the last one seen (written with last_used_at); null before 0009. */
  sign_in_address?: string | null;
  last_address?: string | null;
}

export interface RetiredRefreshTokensTable {
  token_hash: string;
  session_id: string;
  retired_at: number;
}

export interface EntriesTable {
  /** Made by the client: every field's ciphertext is bound to it. Unique per account: the key is (user_id, id). */
  id: string;
  user_id: string;
  service_name: string;
  username: string;
  password: string;
  url: string | null;
  notes: string | null;
  /** The encrypted document of what the list shows; null for entries of the old format. */
  overview: string | null;
  /** The encrypted document of the entry's other secrets (TOTP seed, card number...). */
  details: string | null;
  /** Bumped by every write (edit, trash, restore): the compare-and-swap token of the API. */
  revision: number;
  created_at: number;
  updated_at: number;
  /** When it went to Trash; null while live. Purged once older than the retention. */
  deleted_at: number | null;
  /** The import it came from (a client-made UUID), for undo; null if added one by one. */
  import_batch?: string | null;
  /** The vault revision of the write that last changed the row (migration 0017); 0: before it. */
  change_seq?: number;
}

/** One replaced version of an entry: its ciphertexts as they were, never decrypted here. */
export interface EntryHistoryTable {
  /** A server-made UUID: history rows are never addressed by the client. */
  id: string;
  entry_id: string;
  user_id: string;
  /** The revision this version had; unique per entry, since every write bumps it. */
  revision: number;
  service_name: string;
  username: string;
  password: string;
  url: string | null;
  notes: string | null;
  overview: string | null;
  details: string | null;
  /** That version's updated_at, and when the write that replaced it happened. */
  saved_at: number;
  replaced_at: number;
}

export interface FoldersTable {
  /** Made by the client: the name's ciphertext is bound to it. Unique per account: the key is (user_id, id). */
  id: string;
  user_id: string;
  /** A ciphertext; nesting ("Work/Banking") is inside it, the server sees no tree. */
  name: string;
  revision: number;
  created_at: number;
  updated_at: number;
  /** The vault revision of the write that last changed the row (migration 0017). */
  change_seq?: number;
}

/** An entry or folder deleted for good: what a change cursor answers for it (migration 0017). */
export interface VaultTombstonesTable {
  user_id: string;
  kind: 'entry' | 'folder';
  id: string;
  /** Its last revision. */
  revision: number;
  /** The vault revision of the write that deleted it. */
  change_seq: number;
  purged_at: number;
}

/** One encrypted settings or history document of a user (decision 0030); the key is (user_id, kind). */
export interface AccountDocumentsTable {
  user_id: string;
  kind: string;
  /** A ciphertext sealed in the browser under the vault key, bound to the kind. */
  ciphertext: string;
  /** 1 for the first write, bumped by each one after: the compare-and-swap token. */
  revision: number;
  updated_at: number;
}

/** An operator's session on the admin API (ADMIN_TOKEN), shared by every server process. */
export interface AdminSessionsTable {
  id: string;
  /** SHA-256 of the admin session token; the token itself is only ever in the cookie. */
  token_hash: string;
  created_at: number;
  /** The absolute limit; the idle limit counts from last_used_at. */
  expires_at: number;
  last_used_at: number;
}

/** One scheduled job's lease and last run (jobs/job-scheduler.ts); times are wall-clock ms. */
export interface JobLeasesTable {
  name: string;
  /** The process running the job now (a random id per process), or null. */
  holder: string | null;
  /** The holder's lease ends here unless renewed: a crashed holder's lease just expires. */
  lease_until: number;
  last_run_at: number | null;
  /** running, ok, failed or stopped (see JobOutcome); never row contents. */
  last_outcome: string | null;
  /** Rows the last finished run deleted. */
  last_deleted: number | null;
  last_duration_ms: number | null;
}

/** A running server process's heartbeat (jobs/server-heartbeat.ts). */
export interface ServerProcessesTable {
  id: string;
  host: string;
  pid: number;
  started_at: number;
  heartbeat_at: number;
}

/** One invitation link (decision 0044). The token is never stored, only its SHA-256. */
export interface InvitesTable {
  id: string;
  /** SHA-256 (base64url) of the link's 32 random bytes. */
  token_hash: string;
  /** The user who made it; null: the operator (lockit-admin or the admin page). */
  invited_by: string | null;
  /** The one address that may use it, as given and case-folded; null: any address. */
  email: string | null;
  email_folded: string | null;
  created_at: number;
  expires_at: number;
  /** Set once, in the transaction that creates the account that used it. */
  used_at: number | null;
  used_by: string | null;
}

/** A started key rotation (migration 0015): the re-encrypted vault waits beside the live one until its commit. */
export interface KeyRotationsTable {
  id: string;
  user_id: string;
  /** Only the session that started it may stage parts and commit. */
  session_id: string;
  /** The vault revision every staged ciphertext was read at; the commit applies only while it is current. */
  base_vault_revision: number;
  created_at: number;
  expires_at: number;
}

/** One re-encrypted item of a rotation; never read by the vault before the commit. */
export interface KeyRotationPartsTable {
  rotation_id: string;
  /** 'entry' | 'version' | 'folder' | 'document'. */
  kind: string;
  /** Entry id; `<entryId>:<revision>`; folder id; document kind. */
  item_key: string;
  /** JSON of the item's ciphertexts. */
  payload: string;
}

/** One file of an entry (migration 0018): everything of it the browser sealed, opaque here. */
export interface AttachmentsTable {
  user_id: string;
  id: string;
  entry_id: string;
  wrapped_key: string;
  metadata: string;
  /** The sealed size announced at create: the upload must bring exactly this many bytes. */
  size: number;
  received: Generated<number>;
  /** Null while the upload is under way: such a file is never listed or served. */
  finished_at: number | null;
  created_at: number;
  updated_at: number;
}

/** Sealed content by byte offset, on PostgreSQL only (migration 0018). */
export interface AttachmentChunksTable {
  user_id: string;
  attachment_id: string;
  byte_offset: number;
  data: Buffer;
}

/** A shared file's sealed bytes by offset, on PostgreSQL only (migration 0021). */
export interface ShareFileChunksTable {
  share_id: string;
  byte_offset: number;
  data: Buffer;
}

/** One share link (migration 0019, decision 0078): sealed in the browser, its key only in the link. */
export interface ShareLinksTable {
  /** A lower-case UUID the browser made; the ciphertext is bound to it. */
  id: string;
  user_id: string;
  ciphertext: string;
  key_check: string;
  /** The password's Argon2id salt; null: no password. */
  password_salt: string | null;
  max_openings: number;
  /** Counted down by one atomic UPDATE per opening; 0: used up. */
  openings_left: number;
  /** 1: the row is deleted by the opening that uses the last one. */
  delete_after_opening: number;
  created_at: number;
  expires_at: number;
  /** The owner's label, sealed under the vault key in the browser; null: made without one. */
  owner_label: string | null;
  /** A shared file's sealed size (migration 0021, decision 0081); null: a text or an item. */
  file_size: number | null;
  /** Sealed bytes of the file stored so far. */
  file_received: Generated<number>;
  /** When the file's upload finished; null: under way (the link does not open yet). */
  file_finished_at: number | null;
}

export interface Database {
  users: UsersTable;
  verification_codes: VerificationCodesTable;
  sessions: SessionsTable;
  retired_refresh_tokens: RetiredRefreshTokensTable;
  entries: EntriesTable;
  entry_history: EntryHistoryTable;
  folders: FoldersTable;
  account_documents: AccountDocumentsTable;
  invites: InvitesTable;
  admin_sessions: AdminSessionsTable;
  job_leases: JobLeasesTable;
  server_processes: ServerProcessesTable;
  recovery_codes: RecoveryCodesTable;
  webauthn_credentials: WebauthnCredentialsTable;
  pending_sign_ins: PendingSignInsTable;
  webauthn_challenges: WebauthnChallengesTable;
  key_rotations: KeyRotationsTable;
  key_rotation_parts: KeyRotationPartsTable;
  vault_tombstones: VaultTombstonesTable;
  attachments: AttachmentsTable;
  attachment_chunks: AttachmentChunksTable;
  share_links: ShareLinksTable;
  share_file_chunks: ShareFileChunksTable;
}

export type Db = Kysely<Database>;
/** What a repository method runs on: the database, or a transaction the caller opened. */
export type Executor = Kysely<Database> | Transaction<Database>;
