/** The port name the popup opens to be told of changes while it is open (background/live-vault.ts). */
export const LIVE_PORT = 'live';

/** What the worker posts on that port: the vault changed and was caught up; ask for the list again. */
export const VAULT_CHANGED = 'vault-changed';
