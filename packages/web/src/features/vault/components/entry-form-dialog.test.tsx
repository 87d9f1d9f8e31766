import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { NetworkError } from '@/lib/api-errors';
import { decodeQrImage, QrImageError } from '../lib/qr-image';
import { emptyDraft } from '@lockit/client-core';
import type { ActionResult, EntryDraft, OpenFolder } from '@lockit/client-core';
import { EntryFormDialog } from './entry-form-dialog';

// jsdom decodes no images: the QR reader answers what each test says.
vi.mock('../lib/qr-image', async (importOriginal) => {
  const real = await importOriginal<typeof import('../lib/qr-image')>();
  return { ...real, decodeQrImage: vi.fn() };
});

const URI = 'otpauth://totp/Lockit:alice?secret=JBSWY3DPEHPK3PXP&issuer=Lockit';

function renderForm({
  initial = emptyDraft(),
  mode = 'add' as 'add' | 'edit',
  result = { ok: true } as ActionResult | (() => Promise<ActionResult>),
  folders = [] as OpenFolder[],
  onAddFolder = undefined as
    ((name: string) => Promise<{ ok: true; folder: OpenFolder } | { ok: false; message: string }>) | undefined,
} = {}) {
  const user = userEvent.setup();
  const onSubmit = vi.fn(async (_draft: EntryDraft) => (typeof result === 'function' ? result() : result));
  const onClose = vi.fn();
  render(
    <EntryFormDialog
      mode={mode}
      initial={initial}
      onSubmit={onSubmit}
      onClose={onClose}
      folders={folders}
      onAddFolder={onAddFolder}
    />,
  );
  const dialog = screen.getByRole('dialog');
  return { user, onSubmit, onClose, dialog, submitted: () => onSubmit.mock.calls.at(-1)?.[0] };
}

async function fillLogin(user: ReturnType<typeof userEvent.setup>, dialog: HTMLElement) {
  await user.type(within(dialog).getByLabelText('Service'), 'Mail');
  await user.type(within(dialog).getByLabelText('Username'), 'alice');
  await user.type(within(dialog).getByLabelText('Password'), 'pw');
}

describe('Entry editor: a login (the spec dialog)', () => {
  it('keeps the spec texts and starts as a login', () => {
    const { dialog } = renderForm();
    expect(dialog).toHaveAccessibleName('Add New Password');
    expect(within(dialog).getByLabelText('Type')).toHaveValue('login');
    for (const label of ['Service', 'Username', 'Password', 'URL (optional)', 'Notes (optional)'])
      expect(within(dialog).getByLabelText(label)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Add' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Service')).toHaveFocus();
  });

  it('refuses a service name of only spaces with a message tied to the field, and sends nothing', async () => {
    const { user, dialog, onSubmit } = renderForm();
    await user.type(within(dialog).getByLabelText('Service'), '   ');
    await user.type(within(dialog).getByLabelText('Username'), 'alice');
    await user.type(within(dialog).getByLabelText('Password'), 'pw');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));

    const service = within(dialog).getByLabelText('Service');
    expect(service).toHaveAttribute('aria-invalid', 'true');
    expect(service).toHaveAccessibleDescription('Enter a name, not only spaces.');
    expect(service).toHaveFocus();
    expect(onSubmit).not.toHaveBeenCalled();

    await user.type(service, 'Mail');
    expect(service).toHaveAttribute('aria-invalid', 'false');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(onSubmit).toHaveBeenCalledOnce();
  });

  it('sends several web addresses, a TOTP seed, custom fields of each kind, tags, a folder and the favourite mark', async () => {
    const folders = [{ id: '7d3c0f4e-4a9b-4c1e-9a77-2f1e0c9b8a11', name: 'Work', revision: 1 }];
    const { user, dialog, submitted } = renderForm({ folders });
    await fillLogin(user, dialog);
    await user.type(within(dialog).getByLabelText('URL (optional)'), 'https://mail.example');
    await user.click(within(dialog).getByRole('button', { name: 'Add another URL' }));
    await user.type(within(dialog).getByLabelText('URL 2'), 'https://webmail.example');
    await user.click(within(dialog).getByRole('button', { name: 'Add another URL' }));
    await user.type(within(dialog).getByLabelText('URL 3'), 'https://gone.example');
    await user.click(within(dialog).getByRole('button', { name: 'Remove URL 3' }));
    await user.type(within(dialog).getByLabelText('One-time code secret (optional)'), 'jbsw y3dp ehpk 3pxp');

    await user.click(within(dialog).getByRole('button', { name: 'Add text field' }));
    await user.type(within(dialog).getByLabelText('Field 1 label'), 'Region');
    await user.type(within(dialog).getByLabelText('Field 1 value'), 'EU');
    await user.click(within(dialog).getByRole('button', { name: 'Add hidden field' }));
    await user.type(within(dialog).getByLabelText('Field 2 label'), 'PIN');
    await user.type(within(dialog).getByLabelText('Field 2 value'), '0000');
    expect(within(dialog).getByLabelText('Field 2 value')).toHaveAttribute('type', 'password');
    await user.click(within(dialog).getByRole('button', { name: 'Add yes/no field' }));
    await user.type(within(dialog).getByLabelText('Field 3 label'), 'Admin');
    await user.click(within(dialog).getByLabelText('Field 3 value'));
    await user.click(within(dialog).getByRole('button', { name: 'Add text field' }));
    await user.click(within(dialog).getByRole('button', { name: /Remove field 4/ }));

    await user.type(within(dialog).getByLabelText('Tags'), 'work, mail{Enter}extra,');
    expect(
      within(within(dialog).getByRole('list', { name: 'Tags of this entry' }))
        .getAllByRole('listitem')
        .map((chip) => chip.firstChild?.textContent),
    ).toEqual(['work', 'mail', 'extra']);
    await user.click(within(dialog).getByRole('button', { name: 'Remove tag extra' }));
    await user.type(within(dialog).getByLabelText('Tags'), 'typed-not-committed');
    await user.selectOptions(within(dialog).getByLabelText('Folder'), 'Work');
    await user.click(within(dialog).getByLabelText('Favourite'));
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));

    const draft = submitted()!;
    expect(draft).toMatchObject({
      type: 'login',
      serviceName: 'Mail',
      urls: ['https://mail.example', 'https://webmail.example'],
      totp: 'jbsw y3dp ehpk 3pxp',
      tags: ['work', 'mail', 'typed-not-committed'],
      folderId: folders[0]!.id,
      favorite: true,
    });
    expect(draft.fields.map(({ label, kind, value }) => ({ label, kind, value }))).toEqual([
      { label: 'Region', kind: 'text', value: 'EU' },
      { label: 'PIN', kind: 'hidden', value: '0000' },
      { label: 'Admin', kind: 'boolean', value: 'true' },
    ]);
  });

  it('names a TOTP secret it cannot use when the field is left, and refuses to save it', async () => {
    const { user, dialog, onSubmit } = renderForm();
    await fillLogin(user, dialog);
    const totp = within(dialog).getByLabelText('One-time code secret (optional)');
    await user.type(totp, 'not base32!');
    await user.tab();
    expect(totp).toHaveAttribute('aria-invalid', 'true');
    expect(totp).toHaveAccessibleDescription(/The secret contains "!", which is not base32/);
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(onSubmit).not.toHaveBeenCalled();

    await user.clear(totp);
    await user.type(totp, URI);
    await user.tab();
    expect(totp).toHaveAttribute('aria-invalid', 'false');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(onSubmit).toHaveBeenCalledOnce();
  });

  it('reads the TOTP seed from a QR code image, chosen as a file or pasted', async () => {
    const { user, dialog, submitted } = renderForm();
    await fillLogin(user, dialog);
    vi.mocked(decodeQrImage).mockResolvedValueOnce(URI);
    await user.click(within(dialog).getByRole('button', { name: 'Read QR image' }));
    await user.upload(within(dialog).getByLabelText('QR code image'), new File(['png'], 'qr.png', { type: 'image/png' }));
    const totp = within(dialog).getByLabelText('One-time code secret (optional)');
    await waitFor(() => expect(totp).toHaveValue(URI));
    expect(within(dialog).getByText('QR code read.')).toBeInTheDocument();

    await user.clear(totp);
    vi.mocked(decodeQrImage).mockRejectedValueOnce(new QrImageError('No QR code found in this image.'));
    await user.upload(within(dialog).getByLabelText('QR code image'), new File(['png'], 'photo.png', { type: 'image/png' }));
    await waitFor(() => expect(totp).toHaveAccessibleDescription(/No QR code found in this image\./));

    vi.mocked(decodeQrImage).mockResolvedValueOnce(URI);
    await user.click(totp);
    await user.paste({
      files: [new File(['png'], 'clip.png', { type: 'image/png' })],
      getData: () => '',
    } as unknown as DataTransfer);
    await waitFor(() => expect(totp).toHaveValue(URI));
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(submitted()?.totp).toBe(URI);
  });

  it('keeps the form and says why when the save fails, without blocking', async () => {
    const message = 'Could not save: you are offline or the server cannot be reached. Your changes are still in the form.';
    const { user, dialog, onSubmit, onClose } = renderForm({ result: { ok: false, message } });
    await fillLogin(user, dialog);
    await user.type(within(dialog).getByLabelText('Notes (optional)'), 'keep me');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));

    expect(await within(dialog).findByText(message)).toBeInTheDocument();
    expect(within(dialog).getByText(message)).toHaveAttribute('role', 'status');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(within(dialog).getByLabelText('Notes (optional)')).toHaveValue('keep me');
    expect(within(dialog).getByRole('button', { name: 'Add' })).toBeEnabled();
    expect(onClose).not.toHaveBeenCalled();
    expect(onSubmit).toHaveBeenCalledOnce();
  });

  it('logs a save that throws under the dialog title (spec) and says so in the form', async () => {
    const { user, dialog } = renderForm({ result: () => Promise.reject(new NetworkError()) });
    await fillLogin(user, dialog);
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitFor(() =>
      expect(console.warn).toHaveBeenCalledWith(
        '[Lockit] Add New Password failed: Network error: the server could not be reached.',
      ),
    );
    expect(within(dialog).getByText(/you are offline/)).toBeInTheDocument();
  });

  it('makes a new folder from the form and selects it', async () => {
    const folder = { id: '5b8a7c2e-1d3f-4e6a-8b9c-0a1b2c3d4e5f', name: 'Banking', revision: 1 };
    const onAddFolder = vi
      .fn()
      .mockResolvedValueOnce({ ok: false, message: 'Enter a folder name.' })
      .mockResolvedValueOnce({ ok: true, folder });
    const { user, dialog, onSubmit, submitted } = renderForm({ onAddFolder });
    await fillLogin(user, dialog);
    await user.click(within(dialog).getByRole('button', { name: 'New folder' }));
    const name = within(dialog).getByLabelText('New folder name');
    expect(name).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(name).toHaveAccessibleDescription('Enter a folder name.');
    expect(onSubmit).not.toHaveBeenCalled();
    await user.type(name, 'Banking{Enter}');
    expect(onAddFolder).toHaveBeenLastCalledWith('Banking');
    await waitFor(() => expect(within(dialog).queryByLabelText('New folder name')).not.toBeInTheDocument());
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(submitted()?.folderId).toBe(folder.id);
  });
});

describe('Entry editor: the other types', () => {
  it('a secure note: a name and the note, no login fields', async () => {
    const { user, dialog, submitted } = renderForm();
    await user.selectOptions(within(dialog).getByLabelText('Type'), 'Secure note');
    expect(dialog).toHaveAccessibleName('Add New Secure Note');
    expect(within(dialog).queryByLabelText('Username')).not.toBeInTheDocument();
    expect(within(dialog).queryByLabelText('Password')).not.toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Name'), 'Alarm');
    await user.type(within(dialog).getByLabelText('Note'), '1234#');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(submitted()).toMatchObject({ type: 'note', serviceName: 'Alarm', notes: '1234#' });
  });

  it('a card: number and code hidden as typed, the expiry checked', async () => {
    const { user, dialog, onSubmit, submitted } = renderForm();
    await user.selectOptions(within(dialog).getByLabelText('Type'), 'Card');
    await user.type(within(dialog).getByLabelText('Name'), 'Visa');
    await user.type(within(dialog).getByLabelText('Cardholder name'), 'Alice L');
    await user.type(within(dialog).getByLabelText('Brand'), 'Visa');
    expect(within(dialog).getByLabelText('Card number')).toHaveAttribute('type', 'password');
    await user.type(within(dialog).getByLabelText('Card number'), '4242424242424242');
    await user.type(within(dialog).getByLabelText('Security code'), '123');
    await user.type(within(dialog).getByLabelText('Expiry month'), '13');
    await user.type(within(dialog).getByLabelText('Expiry year'), '2031');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(within(dialog).getByLabelText('Expiry month')).toHaveAccessibleDescription('Enter a month from 1 to 12.');
    expect(onSubmit).not.toHaveBeenCalled();
    await user.clear(within(dialog).getByLabelText('Expiry month'));
    await user.type(within(dialog).getByLabelText('Expiry month'), '7');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(submitted()).toMatchObject({
      type: 'card',
      card: { holder: 'Alice L', brand: 'Visa', number: '4242424242424242', code: '123', expMonth: '7', expYear: '2031' },
    });
  });

  it('an identity: names and address in the open, document numbers hidden', async () => {
    const { user, dialog, submitted } = renderForm();
    await user.selectOptions(within(dialog).getByLabelText('Type'), 'Identity');
    await user.type(within(dialog).getByLabelText('Name'), 'Me');
    await user.type(within(dialog).getByLabelText('First name'), 'Alice');
    await user.type(within(dialog).getByLabelText('City'), 'Oxford');
    expect(within(dialog).getByLabelText('Passport number')).toHaveAttribute('type', 'password');
    await user.type(within(dialog).getByLabelText('Passport number'), 'P123');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(submitted()).toMatchObject({ type: 'identity', identity: { firstName: 'Alice', city: 'Oxford', passport: 'P123' } });
  });

  it('edit: starts from the entry, titled by its type', () => {
    const initial: EntryDraft = {
      ...emptyDraft('card'),
      serviceName: 'Visa',
      card: { holder: 'A', brand: 'Visa', number: '4242', code: '1', expMonth: '1', expYear: '30' },
      fields: [{ id: 'x1', label: 'Bank', kind: 'text', value: 'B' }],
      tags: ['money'],
    };
    const { dialog } = renderForm({ initial, mode: 'edit' });
    expect(dialog).toHaveAccessibleName('Edit Card');
    expect(within(dialog).getByLabelText('Name')).toHaveValue('Visa');
    expect(within(dialog).getByLabelText('Field 1 value')).toHaveValue('B');
    expect(within(dialog).getByRole('button', { name: 'Remove tag money' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Save' })).toBeInTheDocument();
  });
});
