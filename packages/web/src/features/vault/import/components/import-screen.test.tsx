import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, signedInRoutes } from '@/testing/fake-api';
import { pageRoutes } from '@/testing/page-routes';
import { renderApp } from '@/testing/render-app';
import { fakeEntryRoutes, unlockedKeyring } from '@/testing/vault-fixtures';
import { ImportPage } from './import-page';

const routes = pageRoutes({ '/vault/import': <ImportPage /> });

async function openImport() {
  const { keyring } = await unlockedKeyring();
  const api = fakeApi({ ...signedInRoutes(), ...fakeEntryRoutes([]).routes });
  const app = renderApp('/vault/import', { routes, keyring });
  await screen.findByText('Drop an export file here, or');
  return { api, app };
}

async function pick(app: Awaited<ReturnType<typeof openImport>>['app'], name: string, text: string) {
  const file = new File([text], name);
  // jsdom's File has no arrayBuffer(); the browser's has, and the screen reads the file with it.
  Object.defineProperty(file, 'arrayBuffer', { value: async () => new TextEncoder().encode(text).buffer });
  await app.user.upload(screen.getByLabelText('Choose a file'), file);
  await screen.findByText(`File: ${name}`);
  await waitFor(() => expect(screen.getByRole('button', { name: 'Show preview' })).toBeEnabled());
}

const formatSelect = () => screen.getByLabelText('Format') as HTMLSelectElement;
const preview = () => screen.findByRole('heading', { name: /^Preview: / });
const created = (type: string) => {
  const term = within(screen.getByLabelText('What will be imported')).getByText(type);
  return term.nextElementSibling?.textContent;
};

const CHROME_CSV =
  'name,url,username,password,note\nMail,https://mail.example,alice,s3cret,first\nBank,https://bank.example,bob,p@ss,\n';

const OTHER_CSV = [
  'Title;Login;Secret;Site;Branch',
  'Mail;alice;m-pass;https://mail.example;North',
  'Shop;bob;s-pass;https://shop.example;South',
].join('\n');

/** A Bitwarden password-protected export, PBKDF2 and AES-CBC + HMAC as Bitwarden writes it (WebCrypto, not the code under test). */
async function protectedBitwarden(plainJson: string, password: string): Promise<string> {
  const encoder = new TextEncoder();
  const salt = 'c2FsdHNhbHRzYWx0c2FsdA==';
  const base = await crypto.subtle.importKey('raw', encoder.encode(password), 'PBKDF2', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits(
    { name: 'PBKDF2', hash: 'SHA-256', salt: encoder.encode(salt), iterations: 5000 },
    base,
    256,
  );
  const prk = await crypto.subtle.importKey('raw', bits, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const expand = async (info: string) => new Uint8Array(await crypto.subtle.sign('HMAC', prk, encoder.encode(`${info}\u0001`)));
  const aes = await crypto.subtle.importKey('raw', await expand('enc'), 'AES-CBC', false, ['encrypt']);
  const mac = await crypto.subtle.importKey('raw', await expand('mac'), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
  const encString = async (plain: string) => {
    const iv = crypto.getRandomValues(new Uint8Array(16));
    const ct = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-CBC', iv }, aes, encoder.encode(plain)));
    const tag = new Uint8Array(await crypto.subtle.sign('HMAC', mac, new Uint8Array([...iv, ...ct])));
    return `2.${b64(iv)}|${b64(ct)}|${b64(tag)}`;
  };
  return JSON.stringify({
    encrypted: true,
    passwordProtected: true,
    salt,
    kdfType: 0,
    kdfIterations: 5000,
    encKeyValidation_DO_NOT_EDIT: await encString(crypto.randomUUID()),
    data: await encString(plainJson),
  });
}

const PLAIN_BITWARDEN = JSON.stringify({
  encrypted: false,
  folders: [],
  items: [
    { type: 1, name: 'Forum', login: { username: 'ada', password: 'f-pass', uris: [{ uri: 'https://forum.example' }] } },
    { type: 2, name: 'Wi-Fi', notes: 'Key: 1234', secureNote: { type: 0 } },
  ],
});

describe('Import screen', () => {
  it('detects the format from the content, and an override to the column mapping shows the columns with examples', async () => {
    const { app } = await openImport();
    await pick(app, 'passwords.csv', CHROME_CSV);
    expect(formatSelect().value).toBe('chrome-csv');

    await app.user.selectOptions(formatSelect(), 'csv-mapped');
    const columns = await screen.findByRole('group', { name: /Choose the columns \(2 rows\)/ });
    expect(within(columns).getByLabelText('Password')).toHaveValue('password');
    expect(within(columns).getByText('e.g. s3cret')).toBeInTheDocument();

    // Unmapping a column keeps it, as a custom field.
    await app.user.selectOptions(within(columns).getByLabelText('Notes'), '');
    expect(within(columns).getByText('Kept as custom fields: note')).toBeInTheDocument();
    await app.user.click(screen.getByRole('button', { name: 'Show preview' }));
    await preview();
    expect(created('Logins')).toBe('2');
    expect(within(screen.getByRole('list', { name: 'Custom fields' })).getByText('note (1)')).toBeInTheDocument();
  });

  it('maps the columns of a CSV of no known format, each with an example value', async () => {
    const { app } = await openImport();
    await pick(app, 'other.csv', OTHER_CSV);
    expect(formatSelect().value).toBe('csv-mapped');
    const columns = await screen.findByRole('group', { name: /Choose the columns \(2 rows\)/ });

    await app.user.selectOptions(within(columns).getByLabelText('Name'), 'Title');
    await app.user.selectOptions(within(columns).getByLabelText('User name'), 'Login');
    await app.user.selectOptions(within(columns).getByLabelText('Password'), 'Secret');
    await app.user.selectOptions(within(columns).getByLabelText('Web address'), 'Site');
    expect(within(columns).getByText('e.g. m-pass')).toBeInTheDocument();
    expect(within(columns).getByText('e.g. https://mail.example')).toBeInTheDocument();
    expect(within(columns).getByText('Kept as custom fields: Branch')).toBeInTheDocument();

    await app.user.click(screen.getByRole('button', { name: 'Show preview' }));
    await preview();
    expect(created('Logins')).toBe('2');
    expect(within(screen.getByRole('list', { name: 'Custom fields' })).getByText('Branch (2)')).toBeInTheDocument();
  });

  it('lists rows of a mapped CSV that do not line up with the header, to be checked', async () => {
    const { app } = await openImport();
    await pick(app, 'other.csv', `${OTHER_CSV}\nBank;carol;b-pass;https://bank.example;East;extra`);
    expect(formatSelect().value).toBe('csv-mapped');
    await app.user.click(screen.getByRole('button', { name: 'Show preview' }));
    await preview();
    const rows = screen.getByRole('list', { name: 'Rows to check' });
    expect(
      within(rows)
        .getAllByRole('listitem')
        .map((row) => row.textContent),
    ).toEqual([
      'Line 4: "Bank" has 6 values where the header has 5 columns, so its values may sit under the wrong names. Check this item after the import, or fix the row in the file.',
    ]);
  });

  it('asks for the password of a protected file, says so when it is wrong, and opens it with the right one', async () => {
    const { app } = await openImport();
    await pick(app, 'bitwarden_encrypted_export.json', await protectedBitwarden(PLAIN_BITWARDEN, 'file secret'));
    expect(formatSelect().value).toBe('bitwarden-json');
    expect(screen.queryByLabelText('File password')).not.toBeInTheDocument();

    await app.user.click(screen.getByRole('button', { name: 'Show preview' }));
    expect(await screen.findByText('This file is protected by a password.')).toHaveFocus();
    await app.user.type(screen.getByLabelText('File password'), 'not it');
    await app.user.click(screen.getByRole('button', { name: 'Show preview' }));
    await screen.findByText('That password does not open this file.');
    expect(screen.queryByRole('heading', { name: /^Preview: / })).not.toBeInTheDocument();

    await app.user.clear(screen.getByLabelText('File password'));
    await app.user.type(screen.getByLabelText('File password'), 'file secret');
    await app.user.click(screen.getByRole('button', { name: 'Show preview' }));
    await preview();
    expect(created('Logins')).toBe('1');
    expect(created('Secure notes')).toBe('1');
  });
});
