import { emptyTransferItem } from '@lockit/transfer';
import { describe, expect, it } from 'vitest';
import { entryPlaintext } from '@lockit/client-core';
import { transferToDraft } from './transfer-to-draft';

const TAG = 'Imported from Bitwarden (JSON) 2025-03-14';

describe('transferToDraft', () => {
  it('maps a login with its TOTP seed, multi-line notes, fields, tags and favourite, adding the import tag', () => {
    const item = {
      ...emptyTransferItem('login', 'Mail'),
      username: 'me@example.com',
      password: 'a,b"c`d\\e f',
      urls: ['https://mail.example.com', 'https://webmail.example.com'],
      notes: 'line one\nline two',
      totp: 'JBSWY3DPEHPK3PXP',
      fields: [{ label: 'PIN', kind: 'hidden' as const, value: '1234' }],
      tags: ['work'],
      favorite: true,
    };
    const outcome = transferToDraft(item, TAG, 'f0000000-0000-4000-8000-000000000000');
    if (!outcome.ok) throw new Error(outcome.reason);
    expect(outcome.draft).toMatchObject({
      type: 'login',
      serviceName: 'Mail',
      username: 'me@example.com',
      password: 'a,b"c`d\\e f',
      urls: item.urls,
      notes: 'line one\nline two',
      totp: 'JBSWY3DPEHPK3PXP',
      tags: ['work', TAG],
      favorite: true,
      folderId: 'f0000000-0000-4000-8000-000000000000',
    });
    // The hidden field's value goes to the sealed details document, not the list's overview.
    const plain = entryPlaintext(outcome.draft);
    expect(plain.details?.hidden).toEqual({ [outcome.draft.fields[0]!.id]: '1234' });
    expect(JSON.stringify(plain.overview)).not.toContain('1234');
  });

  it('puts card number and code and identity numbers in the sealed details document', () => {
    const card = {
      ...emptyTransferItem('card', 'Visa'),
      card: { holder: 'A B', brand: 'Visa', number: '4111111111111111', code: '123', expMonth: '12', expYear: '2030' },
    };
    const outcome = transferToDraft(card, TAG, null);
    if (!outcome.ok) throw new Error(outcome.reason);
    const plain = entryPlaintext(outcome.draft);
    expect(plain.details?.card).toEqual({ number: '4111111111111111', code: '123' });
    expect(plain.overview.card?.last4).toBe('1111');
    expect(JSON.stringify(plain.overview)).not.toContain('4111111111111111');
  });

  it('keeps what a type has no place for as custom fields (secrets hidden), never dropping it', () => {
    const note = { ...emptyTransferItem('note', 'Wifi'), username: 'guest', password: 'hunter2', urls: ['http://router.local'] };
    const outcome = transferToDraft(note, TAG, null);
    if (!outcome.ok) throw new Error(outcome.reason);
    expect(outcome.draft.fields.map(({ label, kind, value }) => ({ label, kind, value }))).toEqual([
      { label: 'Username', kind: 'text', value: 'guest' },
      { label: 'Password', kind: 'hidden', value: 'hunter2' },
      { label: 'Website', kind: 'text', value: 'http://router.local' },
    ]);
    expect(outcome.keptAsFields).toEqual(['Username', 'Password', 'Website']);
  });

  it('keeps the password history as hidden fields, since the server takes no history for a new item', () => {
    const item = {
      ...emptyTransferItem('login', 'Bank'),
      password: 'now',
      passwordHistory: [{ password: 'before', changedAt: '2024-05-01T10:00:00Z' }],
    };
    const outcome = transferToDraft(item, TAG, null);
    if (!outcome.ok) throw new Error(outcome.reason);
    expect(outcome.draft.fields).toMatchObject([{ label: 'Earlier password (2024-05-01)', kind: 'hidden', value: 'before' }]);
  });

  it('refuses an item past a cap with the reason, never cutting it short', () => {
    const long = { ...emptyTransferItem('note', 'Huge'), notes: 'x'.repeat(10_001) };
    expect(transferToDraft(long, TAG, null)).toEqual({ ok: false, reason: 'The notes is longer than 10000 characters.' });
    const many = {
      ...emptyTransferItem('login', 'Fields'),
      fields: Array.from({ length: 51 }, (_, i) => ({ label: `f${i}`, kind: 'text' as const, value: 'v' })),
    };
    expect(transferToDraft(many, TAG, null)).toMatchObject({ ok: false, reason: expect.stringMatching(/at most 50/) });
  });
});

describe('transferToDraft: SSH keys', () => {
  // A throwaway key made with `ssh-keygen -t ed25519 -N '' -C fixture@lockit` for tests only.
  const KEY = `-----BEGIN OPENSSH PRIVATE KEY-----
b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW
QyNTUxOQAAACD/3O5D7XztpXe5G9KcQBd2M3YzqSaOBbrFrGO9qRFglgAAAJh0cY8DdHGP
AwAAAAtzc2gtZWQyNTUxOQAAACD/3O5D7XztpXe5G9KcQBd2M3YzqSaOBbrFrGO9qRFglg
AAAEDR/nwgk9LN2KiMI+qG6qnnuWqPz1/vt/aFNOsLd9cRYP/c7kPtfO2ld7kb0pxAF3Yz
djOpJo4FusWsY72pEWCWAAAADmZpeHR1cmVAbG9ja2l0AQIDBAUGBw==
-----END OPENSSH PRIVATE KEY-----
`;
  const PUBLIC = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIP/c7kPtfO2ld7kb0pxAF3YzdjOpJo4FusWsY72pEWCW deploy';

  it('keeps a key the vault can take as an SSH key item, with the comment of its public key', () => {
    const item = { ...emptyTransferItem('sshKey', 'Deploy'), sshKey: { privateKey: KEY, publicKey: PUBLIC, fingerprint: '' } };
    const outcome = transferToDraft(item, TAG, null);
    if (!outcome.ok) throw new Error(outcome.reason);
    expect(outcome.draft.type).toBe('sshKey');
    expect(outcome.draft.sshKey).toEqual({ privateKey: KEY, comment: 'deploy' });
    expect(entryPlaintext(outcome.draft).overview.sshKey?.publicKey).toBe(PUBLIC);
  });

  it('keeps a key it cannot take (passphrase-protected) as a note with the key in a hidden field', () => {
    const locked = KEY.replace('AAAABG5vbmUAAAAEbm9uZQ', 'AAAACmFlczI1Ni1jdHIAAAAGYmNyeXB0');
    const item = {
      ...emptyTransferItem('sshKey', 'Old'),
      sshKey: { privateKey: locked, publicKey: PUBLIC, fingerprint: 'SHA256:x' },
    };
    const outcome = transferToDraft(item, TAG, null);
    if (!outcome.ok) throw new Error(outcome.reason);
    expect(outcome.draft.type).toBe('note');
    expect(outcome.draft.fields.map((field) => [field.label, field.kind, field.value])).toEqual([
      ['Private key', 'hidden', locked],
      ['Public key', 'text', PUBLIC],
      ['Fingerprint', 'text', 'SHA256:x'],
    ]);
  });
});
