import { describe, expect, it } from 'vitest';
import {
  DOCUMENT_LIMITS,
  EntryDocumentError,
  detailsDocumentSchema,
  overviewDocumentSchema,
  parseEntryDocument,
  type DetailsDocument,
  type OverviewDocument,
} from './entry-documents';
import { ENTRY_PLAINTEXT_LIMITS, entryRevisionQuerySchema, updateEntryRequestSchema } from './entries';
import { addFolderRequestSchema } from './folders';

const overview: OverviewDocument = {
  v: 1,
  type: 'login',
  urls: ['https://bank.example'],
  tags: ['money'],
  folderId: null,
  favorite: true,
  fields: [
    { id: 'f1', label: 'PIN hint', kind: 'text', value: 'birthday' },
    { id: 'f2', label: 'PIN', kind: 'hidden' },
  ],
  hasTotp: true,
  card: null,
  identity: null,
};
const details: DetailsDocument = {
  v: 1,
  totp: 'otpauth://totp/Bank?secret=JBSWY3DPEHPK3PXP',
  hidden: { f2: '4321' },
  card: null,
  identity: null,
};

const parseOverview = (value: unknown) => parseEntryDocument(overviewDocumentSchema, JSON.stringify(value), 'overview');

describe('entry documents', () => {
  it('parse what the web app writes', () => {
    expect(parseOverview(overview)).toEqual(overview);
    expect(parseEntryDocument(detailsDocumentSchema, JSON.stringify(details), 'details')).toEqual(details);
  });

  it('refuse a key they do not know, instead of carrying it along', () => {
    expect(() => parseOverview({ ...overview, owner: 'server' })).toThrow(EntryDocumentError);
    expect(() => parseOverview({ ...overview, fields: [{ ...overview.fields[0], script: 'x' }] })).toThrow(/fields\.0/);
  });

  it('refuse values past their caps, naming the path', () => {
    expect(() => parseOverview({ ...overview, urls: Array(DOCUMENT_LIMITS.urls + 1).fill('https://a.test') })).toThrow(/urls/);
    expect(() => parseOverview({ ...overview, tags: ['x'.repeat(DOCUMENT_LIMITS.tag + 1)] })).toThrow(
      /tags\.0 is longer than 60 characters/,
    );
    expect(() => parseOverview({ ...overview, type: 'passport' })).toThrow(/type/);
  });

  it('read version 2 only with the name and user name, and version 1 only without them', () => {
    const listed = { ...overview, v: 2, name: 'Bank', username: 'ada' };
    expect(parseOverview(listed)).toEqual(listed);
    expect(() => parseOverview({ ...overview, v: 2, name: 'Bank' })).toThrow(/v has a name and a user name in version 2/);
    expect(() => parseOverview({ ...overview, name: 'Bank', username: 'ada' })).toThrow(/\bv\b/);
    expect(() => parseOverview({ ...overview, username: 'ada' })).toThrow(/\bv\b/);
    expect(() => parseOverview({ ...listed, name: 'x'.repeat(ENTRY_PLAINTEXT_LIMITS.serviceName + 1) })).toThrow(
      /name is longer/,
    );
    expect(() => parseOverview({ ...listed, username: 'x'.repeat(ENTRY_PLAINTEXT_LIMITS.username + 1) })).toThrow(
      /username is longer/,
    );
  });

  it('refuse what is not JSON, or a version they do not know', () => {
    expect(() => parseEntryDocument(overviewDocumentSchema, '{"v":1', 'overview')).toThrow(
      'The overview of this entry is not valid JSON.',
    );
    expect(() => parseOverview({ ...overview, v: 3 })).toThrow(/\bv\b/);
  });

  it('keep card numbers out of the overview: only the last four digits fit', () => {
    const card = { holder: 'Ada', brand: 'Visa', last4: '4242', expMonth: '12', expYear: '2030' };
    expect(parseOverview({ ...overview, type: 'card', card }).card).toEqual(card);
    expect(() => parseOverview({ ...overview, type: 'card', card: { ...card, last4: '4242424242424242' } })).toThrow(/last4/);
  });
});

describe('writes name their revision', () => {
  it('an update without a revision is refused with a readable message', () => {
    const result = updateEntryRequestSchema.safeParse({ serviceName: 'v1.x', username: 'v1.x', password: 'v1.x' });
    expect(result.error?.issues.find((issue) => issue.path[0] === 'revision')?.message).toMatch(
      /revision this change is based on/,
    );
  });

  it('a delete takes its revision from the query string', () => {
    expect(entryRevisionQuerySchema.parse({ revision: '4' })).toEqual({ revision: 4 });
    expect(entryRevisionQuerySchema.safeParse({}).success).toBe(false);
    expect(entryRevisionQuerySchema.safeParse({ revision: 'two' }).success).toBe(false);
  });

  it('a folder name is a ciphertext too', () => {
    expect(addFolderRequestSchema.safeParse({ id: '0f8fad5b-d9cb-469f-a165-70867728950e', name: 'Work' }).success).toBe(false);
  });
});

describe('SSH key documents', () => {
  const sshKey = {
    publicKey: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOp2BGDpVkCn7cR3y3N0lZmpxbA5lgdw8cDRDpJdeKwm laptop',
    fingerprint: 'SHA256:6z0d2Pb4jpiMwUc4tLq4m0xPqQbNHPmvvODk4PWaFXc',
    comment: 'laptop',
  };
  const privateKey = '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n';

  it('parse an SSH key overview and its private key in details', () => {
    expect(parseOverview({ ...overview, type: 'sshKey', sshKey }).sshKey).toEqual(sshKey);
    const parsed = parseEntryDocument(detailsDocumentSchema, JSON.stringify({ ...details, sshKey: { privateKey } }), 'details');
    expect(parsed.sshKey?.privateKey).toBe(privateKey);
  });

  it('refuse a public key that is no OpenSSH line, a fingerprint of the wrong form, and a private key in another format', () => {
    expect(() => parseOverview({ ...overview, type: 'sshKey', sshKey: { ...sshKey, publicKey: 'ecdsa-sha2 AAAA' } })).toThrow(
      /sshKey.publicKey must be an OpenSSH public key line/,
    );
    expect(() => parseOverview({ ...overview, type: 'sshKey', sshKey: { ...sshKey, fingerprint: 'MD5:aa:bb' } })).toThrow(
      EntryDocumentError,
    );
    const pem = '-----BEGIN RSA PRIVATE KEY-----\nMIIB\n-----END RSA PRIVATE KEY-----\n';
    expect(() =>
      parseEntryDocument(detailsDocumentSchema, JSON.stringify({ ...details, sshKey: { privateKey: pem } }), 'details'),
    ).toThrow(/must be an OpenSSH private key/);
  });
});
