import { describe, expect, it } from 'vitest';
import { apiPaths, SESSION_HINT_COOKIE } from '@lockit/contract';
import { fromBase64Url } from '@lockit/crypto';
import { login, makeKeyMaterial, newAccount, signUpAndVerify } from './helpers/accounts';
import { encryptEntry, encryptItem } from './helpers/entries';
import { newFolder } from './helpers/folders';
import { useTestApp } from './helpers/test-app';

const h = useTestApp();
const TABLES = [
  'users',
  'verification_codes',
  'sessions',
  'retired_refresh_tokens',
  'entries',
  'entry_history',
  'folders',
] as const;

/** Every value of every column of every table, as text. */
async function everyStoredValue(): Promise<string[]> {
  const values: string[] = [];
  for (const table of TABLES) {
    const rows = (await h.db.selectFrom(table).selectAll().execute()) as Array<Record<string, unknown>>;
    for (const row of rows) for (const value of Object.values(row)) if (value !== null) values.push(String(value));
  }
  return values;
}

/** A secret in every encoding it could be stored in. */
function encodings(secret: string, bytes?: Uint8Array): string[] {
  const forms = [secret, Buffer.from(secret, 'utf8').toString('hex'), Buffer.from(secret, 'utf8').toString('base64')];
  if (bytes) {
    const buffer = Buffer.from(bytes);
    forms.push(
      buffer.toString('hex'),
      buffer.toString('base64'),
      buffer.toString('base64url'),
      buffer.toString('base64').replace(/=+$/, ''),
    );
  }
  return forms;
}

describe('zero knowledge at rest', () => {
  it('stores no master password, authKey, vault key or entry plaintext in any column', async () => {
    const account = await newAccount({ password: 'Tr0ub4dor & correct horse battery staple' });
    const client = h.client();
    await signUpAndVerify(h, client, account);
    await login(client, account);
    const plain = {
      serviceName: 'Secret Bank Online',
      username: 'alice.private.login',
      password: 'entry-password-9f3k',
      url: 'https://secret-bank.example',
      notes: 'security answer: blue whale',
    };
    const entry = await encryptEntry(account, plain);
    expect((await client.post(apiPaths.addEntry, entry)).statusCode).toBe(201);
    await client.post(apiPaths.refreshToken);

    const next = await makeKeyMaterial('A whole new master password 2025!', account.vaultKeyBytes);
    const changed = await client.put(apiPaths.changePassword, {
      oldPassword: account.keys.authKey,
      newPassword: next.keys.authKey,
      kdf: next.kdf,
      salt: next.salt,
      protectedKey: next.protectedKey,
      keyGeneration: 1,
    });
    expect(changed.statusCode).toBe(200);
    const update = await client.put(apiPaths.updateEntry(entry.id), {
      ...(await encryptEntry(account, { ...plain, password: 'second-entry-pw-x7' }, entry.id)),
      revision: 1,
    });
    expect(update.statusCode).toBe(200);
    // History keeps the first version, and Trash the entry: both only as ciphertexts.
    expect((await client.delete(`${apiPaths.deleteEntry(entry.id)}?revision=2`)).statusCode).toBe(200);
    const item = await encryptItem(account, {
      serviceName: 'Private Card',
      username: 'card-holder-name',
      password: '',
      overview: { v: 1, type: 'card', tags: ['tag-private-kq9'] },
      details: { v: 1, cardNumber: '4111111111111111', totp: 'JBSWY3DPEHPK3PXP' },
    });
    expect((await client.post(apiPaths.addEntry, item)).statusCode).toBe(201);
    expect((await client.post(apiPaths.folders, await newFolder(account, 'Folder Name Private-77'))).statusCode).toBe(201);

    const secrets = [
      ...encodings(account.password),
      ...encodings(account.keys.authKey, fromBase64Url(account.keys.authKey)),
      ...encodings(next.password),
      ...encodings(next.keys.authKey, fromBase64Url(next.keys.authKey)),
      ...encodings('vault', account.vaultKeyBytes).slice(3),
      ...Object.values(plain),
      'second-entry-pw-x7',
      'Private Card',
      'card-holder-name',
      'tag-private-kq9',
      '4111111111111111',
      'JBSWY3DPEHPK3PXP',
      'Folder Name Private-77',
      // The session tokens; the hint cookie is `1`, no secret.
      ...[...client.jar].filter(([name]) => name !== SESSION_HINT_COOKIE).map(([, value]) => value),
    ];
    const stored = await everyStoredValue();
    // The scan sees the data: what should be stored is found.
    expect(stored).toContain(next.protectedKey);
    expect(stored).toContain(entry.id);
    expect(stored).toContain(item.overview);
    const hits = secrets.filter((secret) => stored.some((value) => value.includes(secret)));
    expect(hits).toEqual([]);
  });
});
