import { KEY_ROTATION_VAULT_CHANGED } from '../../vault/key-rotation-commit';

/** Texts of key rotation the web app shows as they are; changing one is an interface change. */
export const KEY_ROTATION_MESSAGES = {
  started: 'Key rotation started',
  staged: 'Staged',
  rotated: 'Your encryption key was rotated.',
  vaultChanged: KEY_ROTATION_VAULT_CHANGED,
  notFound: 'No key rotation with that id: it may have expired. Start again.',
} as const;
