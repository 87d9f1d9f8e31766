import { parseSshPrivateKey, SshKeyError } from '@lockit/client-core';

/** Why an SSH key item's private key cannot be saved (one sentence), or null when it can. */
export function sshKeyProblem(privateKey: string): string | null {
  if (privateKey.trim() === '') return 'Generate a key or paste an OpenSSH private key.';
  try {
    parseSshPrivateKey(privateKey);
    return null;
  } catch (error) {
    return error instanceof SshKeyError ? error.message : 'This private key could not be read.';
  }
}
