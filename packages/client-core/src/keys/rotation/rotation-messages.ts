import type { RotationCommitted, RotationProgress } from './rotate-vault-key';

const count = (n: number) => n.toLocaleString('en-US');

/** The progress in plain words with numbers: "Re-encrypting 3,400 of 10,000 items...". */
export function progressText(progress: RotationProgress): string {
  switch (progress.step) {
    case 'reading':
      return 'Reading your vault...';
    case 're-encrypting':
      return `Re-encrypting ${count(progress.done)} of ${count(progress.total)} items...`;
    case 'saving':
      return `Saving ${count(progress.done)} of ${count(progress.total)} items...`;
    case 'switching':
      return 'Switching to the new key...';
  }
}

/** What the commit did besides the key, in a sentence each (none when the server did not say). */
export function afterRotationNotes(committed: RotationCommitted | null): string[] {
  if (!committed) return [];
  const notes: string[] = [];
  if (committed.sessionsEnded > 0) {
    notes.push(
      `${count(committed.sessionsEnded)} other ${committed.sessionsEnded === 1 ? 'device was' : 'devices were'} signed out.`,
    );
  }
  if (committed.passkeyUnlocksRemoved > 0) {
    const passkeys = committed.passkeyUnlocksRemoved === 1 ? 'passkey' : 'passkeys';
    notes.push(
      `Set up unlocking with your ${passkeys} again: ${count(committed.passkeyUnlocksRemoved)} ${passkeys} no longer unlock the vault.`,
    );
  }
  return notes;
}
