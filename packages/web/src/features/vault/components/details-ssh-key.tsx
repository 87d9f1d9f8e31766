import type { ReactNode } from 'react';
import type { EntrySecrets, OpenEntry } from '@lockit/client-core';
import type { FieldOf } from './details-field';

/** An SSH key's fields: the public key and fingerprint to copy, the private key hidden until revealed. */
export function sshKeySections(entry: OpenEntry, secrets: EntrySecrets | null, field: FieldOf): ReactNode[] {
  if (!entry.sshKey) return [];
  const sections: ReactNode[] = [
    field('publicKey', 'Public key', entry.sshKey.publicKey, { mono: true, what: 'the public key' }),
    field('fingerprint', 'Fingerprint', entry.sshKey.fingerprint, { mono: true }),
  ];
  if (secrets?.sshKey?.privateKey)
    sections.push(field('privateKey', 'Private key', secrets.sshKey.privateKey, { hidden: true, what: 'the private key' }));
  return sections;
}
