import { apiPaths, VAULT_STATE_HEADER } from '@lockit/contract';
import type { VerifiedAccount } from '@lockit/test-support';
import { describe, expect, it } from 'vitest';
import { openEntry, openEntryHistory, VaultIntegrityRefusedError, type IntegrityReport } from '../src';
import { databaseKind } from './support/core-against-server';
import { useCoreServer } from './support/use-core-server';
import { coreVaultOf, loginDraft, type CoreVault } from './support/core-vault';

const env = useCoreServer();

let shared: Promise<VerifiedAccount> | undefined;

interface ServedList {
  body: { message: string; data: Record<string, unknown>[] };
  state: string;
}

/**
 * A client talking to the lying server (honest until a test adds a rule), with a vault it
 * wrote and checked: Bank and Mail live, Old forum in Trash. This device remembers its counter
 * and the names of what it saw.
 */
async function clientWithVault(account: 'shared' | 'other' = 'shared') {
  // One account per file (each costs the server two Argon2id hashes); each test a fresh device.
  const verified = await (account === 'shared' ? (shared ??= env.account()) : env.account());
  const client = await coreVaultOf(verified, env.proxy.url);
  await client.check();
  const bank = await client.entries.add(loginDraft({ serviceName: 'Bank', password: 'b4nk' }));
  const mail = await client.entries.add(loginDraft({ serviceName: 'Mail' }));
  const forum = await client.entries.add(loginDraft({ serviceName: 'Old forum' }));
  const trashed = await client.entries.trash(forum.id, 1);
  if (trashed.kind !== 'saved') throw new Error(trashed.kind);
  return { verified, client, ids: { bank: bank.id, mail: mail.id, forum: forum.id } };
}

/** The list as the real server serves it now (through the honest proxy), with its state header. */
async function servedNow(client: CoreVault): Promise<ServedList> {
  const answer = await client.api.exchange('list-entries', {});
  return { body: answer.body as ServedList['body'], state: answer.headers.get(VAULT_STATE_HEADER)! };
}

/** Serves every later list as `edit` makes it of the real one (or `replay` whole, header included). */
function lieAboutTheList(edit: (served: ServedList) => ServedList) {
  env.proxy.rewrite({
    method: 'GET',
    path: apiPaths.listEntries,
    rewrite: (response) => {
      const real = { body: response.body as ServedList['body'], state: String(response.headers[VAULT_STATE_HEADER]) };
      const lie = edit(real);
      response.headers[VAULT_STATE_HEADER] = lie.state;
      return lie.body;
    },
  });
}

/** The check fails with `kind`, and the client refuses to write on top: nothing is sent. */
async function expectReported(client: CoreVault, kind: IntegrityReport['kind'] | 'any'): Promise<IntegrityReport> {
  await client.check();
  const report = client.integrity.report;
  expect(report).not.toBeNull();
  if (kind !== 'any') expect(report?.kind).toBe(kind);
  const sentBefore = env.proxy.recorded.filter((request) => request.method !== 'GET').length;
  await expect(client.entries.add(loginDraft({ serviceName: 'After the lie' }))).rejects.toBeInstanceOf(
    VaultIntegrityRefusedError,
  );
  expect(env.proxy.recorded.filter((request) => request.method !== 'GET').length).toBe(sentBefore);
  return report!;
}

const withoutId = (list: ServedList['body'], id: string) => ({ ...list, data: list.data.filter((entry) => entry.id !== id) });

describe(`the client core's whole-vault check against a lying server (${databaseKind})`, () => {
  it('passes the honest server, writes and all', async () => {
    const { client } = await clientWithVault();
    await client.check();
    expect(client.integrity.report).toBeNull();
  });

  it('reports an entry withheld from the list, by name', async () => {
    const { client, ids } = await clientWithVault();
    lieAboutTheList((real) => ({ ...real, body: withoutId(real.body, ids.bank) }));
    const report = await expectReported(client, 'incomplete');
    expect(report.missing).toEqual(['Bank']);
  });

  it('reports an entry withheld from Trash', async () => {
    const { client, ids } = await clientWithVault();
    lieAboutTheList((real) => ({ ...real, body: withoutId(real.body, ids.forum) }));
    const report = await expectReported(client, 'incomplete');
    expect(report.missingTrashed).toEqual(['Old forum']);
  });

  it('reports a purged entry served again beside the current state', async () => {
    const { client, ids } = await clientWithVault();
    const before = await servedNow(client);
    const forum = before.body.data.find((entry) => entry.id === ids.forum)!;
    expect(await client.entries.purge(ids.forum, 2)).toEqual({ kind: 'purged' });
    lieAboutTheList((real) => ({ ...real, body: { ...real.body, data: [...real.body.data, forum] } }));
    await expectReported(client, 'unknown-members');
  });

  it('reports a trashed entry served as live again', async () => {
    const { client, ids } = await clientWithVault();
    lieAboutTheList((real) => ({
      ...real,
      body: {
        ...real.body,
        data: real.body.data.map((entry) => (entry.id === ids.forum ? { ...entry, deletedAt: null } : entry)),
      },
    }));
    // Its live element (no trash time) is one no state holds: it cannot pass as live.
    await expectReported(client, 'any');
  });

  it('reports the vault rolled back to an older state, whole but older', async () => {
    const { client, ids } = await clientWithVault();
    const old = await servedNow(client);
    const edited = await client.entries.update(ids.bank, 1, loginDraft({ serviceName: 'Bank', password: 'n3w' }));
    expect(edited.kind).toBe('saved');
    lieAboutTheList(() => old);
    const report = await expectReported(client, 'older');
    expect(report.olderButWhole).toBe(true);
    expect(report.counters.served).toBeLessThan(report.counters.remembered);
  });

  it('reports a state sealed under another vault key (a replayed old key), and shows its entries as damaged, not data', async () => {
    const { client } = await clientWithVault();
    // Another vault, under a key that is not this one (as a vault key from before a rotation is not).
    const other = await clientWithVault('other');
    const foreign = await servedNow(other.client);
    lieAboutTheList(() => foreign);
    await expectReported(client, 'bad-tag');
    const opened = await Promise.all(foreign.body.data.map((wire) => openEntry(client.vaultKey, wire)));
    expect(opened.every((entry) => entry === null || entry.status === 'damaged')).toBe(true);
  });

  it('reports a vault served without its state to a device that saw one', async () => {
    const { client } = await clientWithVault();
    env.proxy.rewrite({
      method: 'GET',
      path: apiPaths.listEntries,
      rewrite: (response) => {
        delete response.headers[VAULT_STATE_HEADER];
        return undefined;
      },
    });
    await expectReported(client, 'missing-state');
  });

  it('opens a history version moved from another entry as nothing, never as that entry’s data', async () => {
    const { client, ids } = await clientWithVault();
    const edit = async (id: string, name: string) => {
      const result = await client.entries.update(id, 1, loginDraft({ serviceName: name, password: `${name} again` }));
      expect(result.kind).toBe('saved');
    };
    await edit(ids.bank, 'Bank');
    await edit(ids.mail, 'Mail');
    const mailHistory = (await client.api.call('entry-history', { params: { id: ids.mail } })).data;
    env.proxy.rewrite({
      method: 'GET',
      path: apiPaths.entryHistory(ids.bank),
      rewrite: (response) => {
        const body = response.body as { data: Record<string, unknown>[] };
        body.data = body.data.map((version) => ({ ...mailHistory[0], revision: version.revision }));
      },
    });
    const history = await openEntryHistory(client.api, client.vaultKey, ids.bank);
    expect(history).toHaveLength(1);
    expect(history[0]!.draft).toBeNull();
  });
});
