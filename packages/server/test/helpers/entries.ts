import { newEntryId, sealEntryFields } from '@lockit/crypto';
import { sealEntry, vaultKeyOf, type PlainEntry, type TestAccount } from '@lockit/test-support';

export type { PlainEntry };

/** What the web app sends for an entry of this account: every field encrypted, bound to the id. */
export async function encryptEntry(account: TestAccount, plain: PlainEntry, id?: string) {
  return sealEntry(await vaultKeyOf(account), plain, id);
}

/** An entry of the item format as the person typed it: the spec's fields plus its documents. */
export interface PlainItem extends PlainEntry {
  overview: Record<string, unknown>;
  details?: Record<string, unknown> | null;
}

/**
 * What the web app sends for an entry of the item format: every field, the `overview` and
 * `details` documents included, sealed to the id and the whole field set. The server cannot
 * tell it from any other v1 ciphertext; this is the realistic body.
 */
export async function encryptItem(account: TestAccount, plain: PlainItem, id = newEntryId()) {
  const sealed = await sealEntryFields(await vaultKeyOf(account), id, {
    serviceName: plain.serviceName,
    username: plain.username,
    password: plain.password,
    url: plain.url ?? null,
    notes: plain.notes ?? null,
    overview: JSON.stringify(plain.overview),
    details: plain.details ? JSON.stringify(plain.details) : null,
  });
  return { id, ...sealed, serviceName: sealed.serviceName!, username: sealed.username!, password: sealed.password! };
}
