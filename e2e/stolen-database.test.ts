import Database from 'better-sqlite3';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { KdfParams } from '@lockit/crypto';
import { useE2e } from './support/setup';
import { authKeyOf, findSecrets } from './support/hostile';
import { header, newAccount, signIn, signUpAndVerify, changeMasterPassword } from './support/journeys';
import { addEntry } from './support/vault-page';

const e2e = useE2e();

/**
 * A database thief: after a realistic session in the browser, everything the server keeps
 * on disk (every table, and the raw SQLite, WAL and SHM files, free pages included) is
 * searched for every secret typed in the test, as typed and in common encodings.
 */

const entries = [
  {
    service: 'Zephyr Cloud Console',
    username: 'zephyr.admin.5150',
    password: 'Zephyr-Vault-Pass-5150',
    url: 'https://console.zephyr-cloud.example/login',
    notes: 'Recovery phrase: amber walnut tundra 5150',
  },
  { service: 'Nimbus Payroll', username: 'nimbus.clerk.6160', password: 'Nimbus-Vault-Pass-6160', url: '', notes: '' },
  { service: 'Tidewater Library', username: 'tidewater.reader.7170', password: 'Tidewater-Vault-Pass-7170', url: '', notes: '' },
];
const editedPassword = 'Nimbus-Rotated-Pass-6161';
const newMasterPassword = 'a second master passphrase 8180';

/** Every row of every table, binary columns as hex and as raw text too. */
function dumpTables(path: string): string {
  const db = new Database(path, { readonly: true });
  try {
    const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as Array<{ name: string }>;
    expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(['users', 'entries', 'sessions']));
    return tables
      .map(({ name }) =>
        JSON.stringify(db.prepare(`SELECT * FROM "${name}"`).all(), (_key, value: unknown) =>
          Buffer.isBuffer(value) ? `${value.toString('hex')} ${value.toString('latin1')}` : value,
        ),
      )
      .join('\n');
  } finally {
    db.close();
  }
}

/** The database files as bytes, read as text: deleted rows and free pages included. */
function rawFiles(dataDir: string): string {
  return readdirSync(dataDir)
    .filter((name) => name.startsWith('lockit.sqlite'))
    .map((name) => readFileSync(join(dataDir, name)).toString('latin1'))
    .join('\n');
}

describe('a thief with a copy of the database', () => {
  it('finds no typed secret, service name, entry user name or master password, in the clear or encoded', async () => {
    const account = newAccount('thief');
    const context = await e2e.newContext();
    const errors = e2e.errors;
    const page = await context.newPage();

    await signUpAndVerify(page, e2e.smtp, account);
    await signIn(page, account.username, account.password);
    await header(page).getByRole('link', { name: 'Vault' }).first().click();
    for (const entry of entries) await addEntry(page, entry);

    const nimbus = page.getByRole('listitem').filter({ has: page.getByText(entries[1]!.service, { exact: true }) });
    await nimbus.getByRole('button', { name: `Edit ${entries[1]!.service}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Password' });
    await edit.getByLabel('Password', { exact: true }).fill(editedPassword);
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'hidden' });

    await header(page).getByRole('link', { name: 'Profile' }).first().click();
    expect(await changeMasterPassword(page, account.password, newMasterPassword)).toBe('✅ Password updated successfully');
    expect(errors).toEqual([]);
    await context.close();

    const tables = dumpTables(e2e.server.databasePath);
    // The dump works: what the server must know (the account's name and email) is there.
    expect(tables).toContain(account.username);
    expect(tables).toContain(account.email);

    const db = new Database(e2e.server.databasePath, { readonly: true });
    const user = db
      .prepare('SELECT salt, kdf_memory_kib, kdf_iterations, kdf_parallelism FROM users WHERE username = ?')
      .get(account.username) as { salt: string; kdf_memory_kib: number; kdf_iterations: number; kdf_parallelism: number };
    db.close();
    const kdf: KdfParams = {
      algorithm: 'argon2id',
      memoryKiB: user.kdf_memory_kib,
      iterations: user.kdf_iterations,
      parallelism: user.kdf_parallelism,
    };

    const secrets: Record<string, string> = {
      firstMasterPassword: account.password,
      newMasterPassword,
      // The server keeps only an Argon2id hash of the authKey, never the authKey itself.
      authKey: await authKeyOf(newMasterPassword, user.salt, kdf),
      editedPassword,
    };
    entries.forEach((entry, i) => {
      for (const [field, value] of Object.entries(entry)) if (value) secrets[`${field}${i}`] = value;
    });

    expect(findSecrets(tables, secrets)).toEqual([]);
    expect(findSecrets(rawFiles(e2e.server.dataDir), secrets)).toEqual([]);
    // Nor does the server's own log hold any of them.
    expect(findSecrets(e2e.server.output(), secrets)).toEqual([]);
  });
});
