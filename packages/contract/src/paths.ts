// No zod here: the web app's first paint imports this module alone (`@lockit/contract/paths`),
// and loads the schemas with the first API answer it has to check.

/** Every API path, named once. The spec fixes these; the prelogin call is Lockit's own. */
export const apiPaths = {
  refreshToken: '/api/users/refresh-token',
  login: '/api/users/login',
  prelogin: '/api/users/prelogin',
  createUser: '/api/users/create',
  sendCode: '/api/email/send-code',
  verifyCode: '/api/email/verify-code',
  /** Lockit's own, public: whether the mail of a send-code answer's ticket went out (decision 0043). */
  mailDelivery: (ticket: string) => `/api/email/delivery/${encodeURIComponent(ticket)}`,
  profile: '/api/user/profile',
  /** Lockit's own: what an Unlock needs (salt, KDF params, wrapped vault key) for a session. */
  keyMaterial: '/api/user/key-material',
  verifySession: '/api/users/verify',
  logout: '/api/users/logout',
  updateUsername: '/api/users/update-username',
  changePassword: '/api/users/change-password',
  deleteAccount: '/api/users/delete-account',
  listEntries: '/api/passwords/show/user-passwords',
  addEntry: '/api/passwords/add',
  updateEntry: (id: string) => `/api/passwords/update-password/${encodeURIComponent(id)}`,
  /** With `?revision=N`: moves the entry to Trash. */
  deleteEntry: (id: string) => `/api/passwords/delete/${encodeURIComponent(id)}`,
  restoreEntry: (id: string) => `/api/passwords/restore/${encodeURIComponent(id)}`,
  /** With `?revision=N`: deletes a trashed entry and its history for good. */
  purgeEntry: (id: string) => `/api/passwords/purge/${encodeURIComponent(id)}`,
  entryHistory: (id: string) => `/api/passwords/history/${encodeURIComponent(id)}`,
  /** Lockit's own: the histories of many entries in one call (the export; decision 0041). */
  entryHistories: '/api/entries/histories',
  /** Lockit's own: the vault's integrity state (GET), and a vault's first one (PUT), decision 0053. */
  vaultState: '/api/vault/state',
  /** Lockit's own: what changed in the vault after a change cursor (`?since=N`), decision 0066. */
  vaultChanges: '/api/vault/changes',
  /** Lockit's own: Server-Sent Events naming each change of the vault as it commits, decision 0066. */
  vaultEvents: '/api/vault/events',
  /** Key rotation: start (POST), upload re-encrypted parts (PUT .../{id}/parts), commit (POST .../{id}/commit). */
  keyRotation: '/api/user/key-rotation',
  keyRotationParts: (id: string) => `/api/user/key-rotation/${encodeURIComponent(id)}/parts`,
  keyRotationCommit: (id: string) => `/api/user/key-rotation/${encodeURIComponent(id)}/commit`,
  folders: '/api/folders',
  folder: (id: string) => `/api/folders/${encodeURIComponent(id)}`,
  /** Lockit's own, public: settings the browser needs (the breach check's range API, decision 0033). */
  publicConfig: '/api/config',
  /** Lockit's own: many sealed entries of one import in one transaction (decision 0036). */
  entryBatch: '/api/entries/batch',
  /** Undoes every call of one import. */
  entryBatchUndo: (batchId: string) => `/api/entries/batch/${encodeURIComponent(batchId)}`,
  /** Lockit's own: one encrypted settings or history document of the account, by kind (decision 0030). */
  accountDocument: (kind: string) => `/api/account/documents/${encodeURIComponent(kind)}`,
  /** Lockit's own: the caller's open invitations (GET) and a new one (POST), decision 0044. */
  invites: '/api/invites',
  /** Revokes one of the caller's open invitations (DELETE). */
  invite: (id: string) => `/api/invites/${encodeURIComponent(id)}`,
  /** Lockit's own: the caller's share links (GET) and a new one (POST), decision 0078. */
  shareLinks: '/api/share-links',
  /** Revokes one of the caller's share links (DELETE). */
  shareLink: (id: string) => `/api/share-links/${encodeURIComponent(id)}`,
  /** Public: a share's state, using no opening (GET). */
  shared: (id: string) => `/api/shared/${encodeURIComponent(id)}`,
  /** Public: uses one opening of a share and answers its sealed content (POST). */
  sharedOpen: (id: string) => `/api/shared/${encodeURIComponent(id)}/open`,
  /** The owner: appends sealed bytes of a shared file (PUT `?offset=N`), decision 0081. */
  shareLinkContent: (id: string) => `/api/share-links/${encodeURIComponent(id)}/content`,
  /** The owner: ends a shared file's upload; the link opens from then on (POST). */
  shareLinkFinish: (id: string) => `/api/share-links/${encodeURIComponent(id)}/finish`,
  /** Public: a shared file's sealed bytes, for the ticket an opening gave (POST). */
  sharedFile: (id: string) => `/api/shared/${encodeURIComponent(id)}/file`,
  /** Lockit's own: the caller's sessions and devices (GET). */
  sessions: '/api/user/sessions',
  /** Ends one of the caller's other sessions (DELETE). */
  session: (id: string) => `/api/user/sessions/${encodeURIComponent(id)}`,
  /** Ends every session of the caller but this one (POST). */
  endOtherSessions: '/api/user/sessions/end-others',
  /** Two-factor sign-in: completes a pending sign-in with a TOTP or recovery code. */
  loginSecondFactor: '/api/users/login/second-factor',
  /** A security-key challenge for a pending sign-in, and its answer. */
  loginWebauthnOptions: '/api/users/login/webauthn-options',
  loginWebauthn: '/api/users/login/webauthn',
  /** Passkey sign-in (public): a discoverable-credential challenge, and its answer. */
  passkeyOptions: '/api/users/passkey/options',
  passkeySignIn: '/api/users/passkey/sign-in',
  /** Unlock with a passkey (session only): a challenge for the caller's passkeys that can unlock, and its answer. */
  passkeyUnlockOptions: '/api/user/passkey/unlock-options',
  passkeyUnlock: '/api/user/passkey/unlock',
  /** The caller's factors (GET). */
  twoFactor: '/api/user/two-factor',
  totpSetup: '/api/user/two-factor/totp/setup',
  totpConfirm: '/api/user/two-factor/totp/confirm',
  totpDisable: '/api/user/two-factor/totp/disable',
  recoveryCodes: '/api/user/two-factor/recovery-codes',
  forgetBrowsers: '/api/user/two-factor/forget-browsers',
  webauthnRegisterOptions: '/api/user/webauthn/register-options',
  webauthnRegister: '/api/user/webauthn/register',
  /** PATCH renames a security key or passkey. */
  webauthnCredential: (id: string) => `/api/user/webauthn/${encodeURIComponent(id)}`,
  webauthnUnlockKey: (id: string) => `/api/user/webauthn/${encodeURIComponent(id)}/unlock`,
  webauthnRemove: (id: string) => `/api/user/webauthn/${encodeURIComponent(id)}/remove`,
} as const;

/**
 * Header every request of the web app carries. State-changing requests without an allowed
 * Origin must carry it (a cross-site form cannot set custom headers).
 */
export const CLIENT_HEADER = 'x-lockit-client';
export const CLIENT_HEADER_VALUE = 'web';

/** POST /api/users/verify answers with this message, and only this one, for a valid session. */
export const SESSION_VALID_MESSAGE = 'Success';

/**
 * A cookie scripts may read, set beside the HttpOnly session cookies and with the refresh
 * cookie's lifetime, cleared with them. It holds no token, only `1`: it means "this browser
 * may have a session", so the web app skips session calls that would surely answer 401.
 * Anyone can forge or delete it; it gives no access and decides nothing on the server.
 */
export const SESSION_HINT_COOKIE = 'lockit_signed_in';

/**
 * The landing routes the web build renders to HTML, so they paint before any script runs
 * (packages/web/tools/prerender.ts), and the file under the build's `pages/` folder the
 * server sends for each. Every other route gets the empty app shell, index.html.
 */
export const PRERENDERED_PAGES = {
  '/': 'pages/splash.html',
  '/home': 'pages/home.html',
  '/about': 'pages/about.html',
  '/signin': 'pages/signin.html',
  '/signup': 'pages/signup.html',
} as const satisfies Record<string, `pages/${string}.html`>;

export type PrerenderedPath = keyof typeof PRERENDERED_PAGES;

/**
 * Who may sign up (SIGNUP_MODE, decision 0044): anyone, only with an invitation link, or
 * nobody. Only `open` shows a Sign Up link; `invite` shows the form only to an invitation link.
 */
export const SIGNUP_MODES = ['open', 'invite', 'closed'] as const;
export type SignupMode = (typeof SIGNUP_MODES)[number];

/**
 * The meta element in every HTML page the server sends (`<meta name=... content="invite">`):
 * the page knows the sign-up mode before any request, so its first render, the prerendered
 * HTML and the hydration agree and no Sign Up link flashes.
 */
export const SIGNUP_MODE_META = 'lockit-signup-mode';

/** The query parameter of an invitation link: `/signup?invite=<token>`. */
export const INVITE_QUERY_PARAM = 'invite';

/**
 * The build's HTML for a route (or the empty shell, route null) in a sign-up mode: open mode's
 * are PRERENDERED_PAGES and index.html themselves, each other mode's sit in `pages/<mode>/`.
 */
export function pageFileFor(route: PrerenderedPath | null, mode: SignupMode): string {
  const file = route === null ? 'index.html' : PRERENDERED_PAGES[route];
  if (mode === 'open') return file;
  return `pages/${mode}/${file.replace(/^pages\//, '')}`;
}
