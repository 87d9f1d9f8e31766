import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { apiPaths } from '@lockit/contract';
import { signedInUser } from './helpers/accounts';
import { snapshotDatabase } from './helpers/db-snapshot';
import { encryptEntry } from './helpers/entries';
import { useTestApp, type TestHarness } from './helpers/test-app';

const MAX_ITEMS = 5;
const FULL_ITEMS = /^This vault is full: it may hold 5 items, Trash included\./;

describe('the per-account item cap', () => {
  const h = useTestApp({ config: { vaultCaps: { maxItems: MAX_ITEMS, maxBytes: 200 * 1024 * 1024 } } });

  const entries = (account: Awaited<ReturnType<typeof signedInUser>>['account'], count: number) =>
    Promise.all(
      Array.from({ length: count }, (_, i) => encryptEntry(account, { serviceName: `s${i}`, username: 'u', password: 'p' })),
    );

  it('refuses an import call that would pass it with 413, storing none of the call', async () => {
    const { account, client } = await signedInUser(h);
    expect(
      (await client.post(apiPaths.entryBatch, { batchId: randomUUID(), entries: await entries(account, 3) })).statusCode,
    ).toBe(201);
    const before = await snapshotDatabase(h.db);
    const response = await client.post(apiPaths.entryBatch, { batchId: randomUUID(), entries: await entries(account, 3) });
    expect(response.statusCode).toBe(413);
    expect(response.json().message).toMatch(FULL_ITEMS);
    expect(await snapshotDatabase(h.db)).toEqual(before);
    expect(
      (await client.post(apiPaths.entryBatch, { batchId: randomUUID(), entries: await entries(account, 2) })).statusCode,
    ).toBe(201);
  });

  it('refuses a single add past it, counts Trash, and lets the person make room', async () => {
    const { account, client } = await signedInUser(h);
    const five = await entries(account, MAX_ITEMS);
    for (const entry of five) expect((await client.post(apiPaths.addEntry, entry)).statusCode).toBe(201);
    expect((await client.delete(`${apiPaths.deleteEntry(five[0]!.id)}?revision=1`)).statusCode).toBe(200);
    const [sixth] = await entries(account, 1);
    const refused = await client.post(apiPaths.addEntry, sixth);
    expect(refused.statusCode).toBe(413);
    expect(refused.json().message).toMatch(FULL_ITEMS);
    expect((await client.get(apiPaths.listEntries)).json().data).toHaveLength(MAX_ITEMS);
    expect((await client.delete(`${apiPaths.purgeEntry(five[0]!.id)}?revision=2`)).statusCode).toBe(200);
    expect((await client.post(apiPaths.addEntry, sixth)).statusCode).toBe(201);
  });

  it("counts each account on its own: one account's full vault does not stop another", async () => {
    const full = await signedInUser(h);
    await full.client.post(apiPaths.entryBatch, { batchId: randomUUID(), entries: await entries(full.account, MAX_ITEMS) });
    const other = await signedInUser(h);
    const response = await other.client.post(apiPaths.entryBatch, {
      batchId: randomUUID(),
      entries: await entries(other.account, MAX_ITEMS),
    });
    expect(response.statusCode).toBe(201);
  });
});

describe('the per-account size cap', () => {
  // Two entries with a 3,000-character note fit (each seals to 4-5 kB, checked below); a third does not.
  const MAX_BYTES = 10_000;
  const h: TestHarness = useTestApp({ config: { vaultCaps: { maxItems: 50_000, maxBytes: MAX_BYTES } } });
  const FULL_SIZE = /^This vault is full: its items may take 1 MB on this server\./;
  const big = (account: Awaited<ReturnType<typeof signedInUser>>['account'], id?: string) =>
    encryptEntry(account, { serviceName: 's', username: 'u', password: 'p', notes: 'n'.repeat(3_000) }, id);

  it('refuses an add, an import call and an edit that would pass it, storing nothing', async () => {
    const { account, client } = await signedInUser(h);
    const first = await big(account);
    const second = await big(account);
    expect((await client.post(apiPaths.addEntry, first)).statusCode).toBe(201);
    expect((await client.post(apiPaths.addEntry, second)).statusCode).toBe(201);
    const size = Object.values(first).reduce((sum, value) => sum + (value?.length ?? 0), 0) - first.id.length;
    expect(size).toBeGreaterThan(4_000);
    expect(size).toBeLessThan(5_000);
    const before = await snapshotDatabase(h.db);

    const add = await client.post(apiPaths.addEntry, await big(account));
    const batch = await client.post(apiPaths.entryBatch, {
      batchId: randomUUID(),
      entries: [await big(account), await big(account)],
    });
    // An edit keeps the old version in history: it grows the vault too.
    const edit = await client.put(apiPaths.updateEntry(first.id), { ...(await big(account, first.id)), revision: 1 });
    for (const response of [add, batch, edit]) {
      expect(response.statusCode).toBe(413);
      expect(response.json().message).toMatch(FULL_SIZE);
    }
    expect(await snapshotDatabase(h.db)).toEqual(before);
  });

  it('never refuses a move to Trash, a restore or a purge, so a full vault can be emptied', async () => {
    const { account, client } = await signedInUser(h);
    const first = await big(account);
    const second = await big(account);
    await client.post(apiPaths.addEntry, first);
    await client.post(apiPaths.addEntry, second);
    expect((await client.delete(`${apiPaths.deleteEntry(first.id)}?revision=1`)).statusCode).toBe(200);
    expect((await client.post(apiPaths.restoreEntry(first.id), { revision: 2 })).statusCode).toBe(200);
    expect((await client.delete(`${apiPaths.deleteEntry(first.id)}?revision=3`)).statusCode).toBe(200);
    expect((await client.delete(`${apiPaths.purgeEntry(first.id)}?revision=4`)).statusCode).toBe(200);
  });
});
