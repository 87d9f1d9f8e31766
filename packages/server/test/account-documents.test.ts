import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_DOCUMENT_BODY_LIMIT,
  ACCOUNT_DOCUMENT_MAX_CIPHERTEXT,
  accountDocumentResponseSchema,
  apiPaths,
  type AccountDocumentKind,
} from '@lockit/contract';
import { decryptField, encryptField, importVaultKey } from '@lockit/crypto';
import type { TestAccount } from '@lockit/test-support';
import { signedInUser } from './helpers/accounts';
import { useTestApp } from './helpers/test-app';

const h = useTestApp();
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const path = (kind: string) => apiPaths.accountDocument(kind);

/** A document as the web app seals it: the JSON under the vault key, bound to the kind. */
async function seal(account: TestAccount, kind: AccountDocumentKind, value: unknown): Promise<string> {
  return encryptField(await importVaultKey(account.vaultKeyBytes), `account-document:${kind}`, 'notes', JSON.stringify(value));
}

async function open(account: TestAccount, kind: AccountDocumentKind, ciphertext: string): Promise<unknown> {
  return JSON.parse(
    await decryptField(await importVaultKey(account.vaultKeyBytes), `account-document:${kind}`, 'notes', ciphertext),
  );
}

describe('GET and PUT /api/account/documents/{kind}', () => {
  it('answers null for a kind never saved, creates it at revision 0 and reads it back as the ciphertext sent', async () => {
    const { account, client } = await signedInUser(h);
    expect((await client.get(path('generator-settings'))).json()).toEqual({ message: 'Success', data: null });

    const ciphertext = await seal(account, 'generator-settings', { length: 24 });
    const created = await client.put(path('generator-settings'), { ciphertext, revision: 0 });
    expect(created.statusCode).toBe(200);
    const answer = accountDocumentResponseSchema.parse(created.json());
    expect(answer).toEqual({
      message: 'Saved',
      data: { kind: 'generator-settings', ciphertext, revision: 1, updatedAt: expect.stringMatching(ISO) },
    });
    const read = accountDocumentResponseSchema.parse((await client.get(path('generator-settings'))).json());
    expect(read.data).toEqual(answer.data);
    expect(await open(account, 'generator-settings', read.data!.ciphertext)).toEqual({ length: 24 });
    // Kinds are separate documents.
    expect((await client.get(path('generator-history'))).json().data).toBeNull();
  });

  it('updates at the current revision, bumping it and the time', async () => {
    const { account, client } = await signedInUser(h);
    await client.put(path('generator-history'), { ciphertext: await seal(account, 'generator-history', []), revision: 0 });
    const created = Date.parse((await client.get(path('generator-history'))).json().data.updatedAt);
    h.clock.advance(5_000);
    const next = await seal(account, 'generator-history', [{ value: 'x' }]);
    const updated = await client.put(path('generator-history'), { ciphertext: next, revision: 1 });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().data).toMatchObject({ ciphertext: next, revision: 2 });
    const read = (await client.get(path('generator-history'))).json().data;
    expect(read).toEqual(updated.json().data);
    expect(Date.parse(read.updatedAt)).toBeGreaterThanOrEqual(created + 5_000);
  });

  it('refuses a stale revision with 409 and the current document, and changes nothing', async () => {
    const { account, client } = await signedInUser(h);
    const first = await seal(account, 'health-settings', { v: 1 });
    await client.put(path('health-settings'), { ciphertext: first, revision: 0 });
    const current = (
      await client.put(path('health-settings'), { ciphertext: await seal(account, 'health-settings', 2), revision: 1 })
    ).json().data;

    for (const revision of [0, 1, 3]) {
      const stale = await client.put(path('health-settings'), { ciphertext: first, revision });
      expect(stale.statusCode).toBe(409);
      expect(stale.json()).toEqual({ message: 'This was changed on another device. Reload and try again.', data: current });
    }
    expect((await client.get(path('health-settings'))).json().data).toEqual(current);
  });

  it('answers a 409 with data null for a revision of a document that does not exist', async () => {
    const { account, client } = await signedInUser(h);
    const response = await client.put(path('generator-settings'), {
      ciphertext: await seal(account, 'generator-settings', {}),
      revision: 4,
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().data).toBeNull();
    expect((await client.get(path('generator-settings'))).json().data).toBeNull();
  });

  it('creates a document once when two first writes race: one wins, the other gets 409 with the winner', async () => {
    const { account, client } = await signedInUser(h);
    const [a, b] = await Promise.all([
      seal(account, 'generator-history', ['a']).then((ciphertext) =>
        client.put(path('generator-history'), { ciphertext, revision: 0 }),
      ),
      seal(account, 'generator-history', ['b']).then((ciphertext) =>
        client.put(path('generator-history'), { ciphertext, revision: 0 }),
      ),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const [winner, loser] = a.statusCode === 200 ? [a, b] : [b, a];
    expect(loser.json().data).toEqual(winner.json().data);
  });

  it('refuses an unknown kind with a 400 naming the kinds', async () => {
    const { account, client } = await signedInUser(h);
    const expected = {
      message: 'kind must be one of generator-settings, generator-history, health-settings',
    };
    for (const kind of ['vault-settings', 'Generator-Settings', 'generator-settings%20', '..%2Fusers']) {
      const get = await client.get(`${apiPaths.accountDocument('')}${kind}`);
      expect(get.statusCode, kind).toBe(400);
      expect(get.json()).toEqual(expected);
      const put = await client.put(`${apiPaths.accountDocument('')}${kind}`, {
        ciphertext: await seal(account, 'generator-settings', {}),
        revision: 0,
      });
      expect(put.statusCode, kind).toBe(400);
      expect(put.json()).toEqual(expected);
    }
  });

  it('refuses plaintext, a missing or negative revision and a body that is not an object, with readable 400s', async () => {
    const { account, client } = await signedInUser(h);
    const ciphertext = await seal(account, 'generator-settings', {});
    const cases: Array<[unknown, string]> = [
      [{ ciphertext: '{"length":20}', revision: 0 }, 'ciphertext must be a Lockit ciphertext (v1.<iv>.<data>), never plaintext'],
      [{ ciphertext }, 'revision is required: the revision this change is based on (0 for a new document)'],
      [{ ciphertext, revision: -1 }, 'revision must be at least 0'],
      [{ ciphertext, revision: 1.5 }, 'revision must be a whole number'],
      [{ revision: 0 }, 'ciphertext is required'],
      [[ciphertext], 'The request body must be a JSON object.'],
    ];
    for (const [body, message] of cases) {
      const response = await client.put(path('generator-settings'), body);
      expect(response.statusCode, message).toBe(400);
      expect(response.json()).toEqual({ message });
    }
    expect((await client.get(path('generator-settings'))).json().data).toBeNull();
  });

  it('caps each kind: a ciphertext over its cap is 400, a body over the route limit is 413', async () => {
    const { account, client } = await signedInUser(h);
    const ciphertext = await seal(account, 'generator-settings', {});
    const settingsCap = ACCOUNT_DOCUMENT_MAX_CIPHERTEXT['generator-settings'];
    const overSettings = `${ciphertext}${'A'.repeat(settingsCap - ciphertext.length + 1)}`;
    const refused = await client.put(path('generator-settings'), { ciphertext: overSettings, revision: 0 });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ message: `ciphertext is longer than ${settingsCap} characters` });

    // History may be far larger than settings: the same text is accepted there.
    const history = await seal(account, 'generator-history', []);
    const large = `${history}${'A'.repeat(settingsCap)}`;
    expect((await client.put(path('generator-history'), { ciphertext: large, revision: 0 })).statusCode).toBe(200);

    const huge = `${history}${'A'.repeat(ACCOUNT_DOCUMENT_BODY_LIMIT)}`;
    const tooLarge = await client.put(path('generator-history'), { ciphertext: huge, revision: 1 });
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json()).toEqual({
      message: `The request body is too large (the limit is ${ACCOUNT_DOCUMENT_BODY_LIMIT / 1024} KiB).`,
    });
    expect((await client.get(path('generator-history'))).json().data).toMatchObject({ ciphertext: large, revision: 1 });
  });

  it('keeps each account to its own documents: another account neither reads nor overwrites them', async () => {
    const alice = await signedInUser(h);
    const bob = await signedInUser(h);
    const mine = await seal(alice.account, 'generator-history', ['secret']);
    await alice.client.put(path('generator-history'), { ciphertext: mine, revision: 0 });

    expect((await bob.client.get(path('generator-history'))).json().data).toBeNull();
    const theirs = await seal(bob.account, 'generator-history', ['theirs']);
    // Bob's revision 1 is his own document's (none): a 409 with his null, never Alice's.
    const overwrite = await bob.client.put(path('generator-history'), { ciphertext: theirs, revision: 1 });
    expect(overwrite.statusCode).toBe(409);
    expect(overwrite.json().data).toBeNull();
    expect((await bob.client.put(path('generator-history'), { ciphertext: theirs, revision: 0 })).statusCode).toBe(200);

    expect((await alice.client.get(path('generator-history'))).json().data).toMatchObject({ ciphertext: mine, revision: 1 });
    expect((await bob.client.get(path('generator-history'))).json().data).toMatchObject({ ciphertext: theirs, revision: 1 });
  });

  it('answers 401 without a session, reading and writing nothing', async () => {
    const { account } = await signedInUser(h);
    const anonymous = h.client();
    const get = await anonymous.get(path('generator-settings'));
    expect(get.statusCode).toBe(401);
    expect(get.json()).toEqual({ message: expect.any(String) });
    const ciphertext = await seal(account, 'generator-settings', {});
    const put = await anonymous.put(path('generator-settings'), { ciphertext, revision: 0 });
    expect(put.statusCode).toBe(401);
    expect(await h.db.selectFrom('account_documents').select('kind').where('ciphertext', '=', ciphertext).execute()).toEqual([]);
  });
});

describe('account documents and account deletion', () => {
  it('deletes the account’s documents with the account and keeps other accounts’ documents', async () => {
    const alice = await signedInUser(h);
    const bob = await signedInUser(h);
    for (const kind of ['generator-settings', 'generator-history', 'health-settings'] as const) {
      await alice.client.put(path(kind), { ciphertext: await seal(alice.account, kind, {}), revision: 0 });
    }
    await bob.client.put(path('generator-history'), {
      ciphertext: await seal(bob.account, 'generator-history', []),
      revision: 0,
    });
    const aliceId = (
      await h.db.selectFrom('users').select('id').where('username', '=', alice.account.username).executeTakeFirstOrThrow()
    ).id;
    expect(await h.db.selectFrom('account_documents').select('kind').where('user_id', '=', aliceId).execute()).toHaveLength(3);

    expect((await alice.client.delete(apiPaths.deleteAccount)).statusCode).toBe(200);
    expect(await h.db.selectFrom('account_documents').select('kind').where('user_id', '=', aliceId).execute()).toEqual([]);
    expect((await bob.client.get(path('generator-history'))).json().data).toMatchObject({ revision: 1 });
  });
});
