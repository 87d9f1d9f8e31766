import { encryptField, importVaultKey, newEntryId } from '@lockit/crypto';
import type { TestAccount } from './accounts';

export interface PlainEntry {
  serviceName: string;
  username: string;
  password: string;
  url?: string | null;
  notes?: string | null;
}

/** What the web app sends for an entry: every field encrypted under the vault key, bound to the id. */
export async function encryptEntry(account: TestAccount, plain: PlainEntry, id = newEntryId()) {
  const vaultKey = await importVaultKey(account.vaultKeyBytes);
  const encrypt = (field: 'serviceName' | 'username' | 'password' | 'url' | 'notes', value: string) =>
    encryptField(vaultKey, id, field, value);
  return {
    id,
    serviceName: await encrypt('serviceName', plain.serviceName),
    username: await encrypt('username', plain.username),
    password: await encrypt('password', plain.password),
    ...(plain.url !== undefined ? { url: plain.url === null ? null : await encrypt('url', plain.url) } : {}),
    ...(plain.notes !== undefined ? { notes: plain.notes === null ? null : await encrypt('notes', plain.notes) } : {}),
  };
}
