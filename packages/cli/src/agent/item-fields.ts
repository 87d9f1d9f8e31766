import { foldForMatching, openSecrets, parseTotpSeed, totpCode, totpRemainingSeconds, type OpenEntry } from '@lockit/client-core';
import { AgentError } from './agent-error';

/** The fields every item answers to, beside its custom fields (by label) and card and identity parts. */
export const STANDARD_FIELDS = ['id', 'name', 'username', 'password', 'url', 'notes', 'totp'] as const;

/**
 * Every field of one item by name, secrets opened now (the web app's reveal): the password,
 * notes, the TOTP's current code, hidden custom fields and card and identity secrets. The values
 * live in this answer only; nothing is kept.
 */
export async function itemFields(vaultKey: CryptoKey, entry: OpenEntry, now = Date.now()): Promise<Map<string, string>> {
  let secrets;
  try {
    secrets = await openSecrets(vaultKey, entry);
  } catch {
    throw new AgentError(
      'integrity',
      `The item "${entry.serviceName}" could not be decrypted; it may have been changed on the server.`,
    );
  }
  const fields = new Map<string, string>();
  fields.set('id', entry.id);
  fields.set('name', entry.serviceName);
  fields.set('username', entry.username);
  fields.set('password', secrets.password);
  fields.set('url', entry.urls[0] ?? entry.url ?? '');
  fields.set('notes', secrets.notes);
  if (secrets.totp !== null) {
    try {
      fields.set('totp', totpCode(parseTotpSeed(secrets.totp), now));
    } catch {
      // A seed that does not parse shows no code (the web app says so on the item).
    }
  }
  if (entry.card) {
    const { holder, brand, expMonth, expYear } = entry.card;
    Object.entries({ holder, brand, expMonth, expYear }).forEach(([key, value]) => fields.set(key, value));
    if (secrets.card) {
      fields.set('number', secrets.card.number);
      fields.set('code', secrets.card.code);
    }
  }
  if (entry.identity) for (const [key, value] of Object.entries(entry.identity)) fields.set(key, value);
  if (secrets.identity) for (const [key, value] of Object.entries(secrets.identity)) fields.set(key, value);
  for (const field of entry.fields) {
    const value = field.kind === 'hidden' ? (secrets.hidden[field.id] ?? '') : (field.value ?? '');
    if (!fields.has(field.label)) fields.set(field.label, value);
  }
  return fields;
}

/** One field by name (case and accents aside); AgentError 'notFound' naming the fields it has. */
export async function itemField(vaultKey: CryptoKey, entry: OpenEntry, name: string): Promise<string> {
  const fields = await itemFields(vaultKey, entry);
  const wanted = foldForMatching(name);
  for (const [key, value] of fields) if (foldForMatching(key) === wanted) return value;
  if (wanted === 'totp') throw new AgentError('notFound', `"${entry.serviceName}" has no TOTP.`);
  throw new AgentError('notFound', `"${entry.serviceName}" has no field "${name}". It has: ${[...fields.keys()].join(', ')}.`);
}

/** The TOTP code now and the seconds it stays valid. */
export async function itemTotp(
  vaultKey: CryptoKey,
  entry: OpenEntry,
  now = Date.now(),
): Promise<{ code: string; remaining: number }> {
  const secrets = await openSecrets(vaultKey, entry).catch(() => {
    throw new AgentError('integrity', `The item "${entry.serviceName}" could not be decrypted.`);
  });
  if (secrets.totp === null) throw new AgentError('notFound', `"${entry.serviceName}" has no TOTP.`);
  const seed = parseTotpSeed(secrets.totp);
  return { code: totpCode(seed, now), remaining: totpRemainingSeconds(seed, now) };
}
