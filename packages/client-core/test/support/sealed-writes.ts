import { apiPaths, formatVaultState, TRASHED_AT_HEADER, VAULT_STATE_HEADER } from '@lockit/contract';
import {
  addElement,
  deriveVaultIntegrityKey,
  EMPTY_SUM,
  entryElement,
  sealVaultState,
  subtractElement,
  trashedElementOf,
  type VaultEntryMember,
} from '@lockit/crypto';
import { sealEntry, type ApiClient, type PlainEntry, type TestAccount } from '@lockit/test-support';
import { expect } from 'vitest';
import { vaultKeyOf } from '@lockit/test-support';

interface Held {
  member: VaultEntryMember;
  /** Its element in the sum now: live, or in Trash with its time. */
  element: Uint8Array;
  trashed: boolean;
}

/**
 * An honest second device writing to the vault as a browser does (decisions 0053, 0061): each
 * write carries the next vault state, sealed under the vault's integrity key over the whole set.
 * It keeps the set's sum and counts itself, so the tests need no browser.
 */
export async function sealedWriter(account: TestAccount, client: ApiClient) {
  const vaultKey = await vaultKeyOf(account);
  const integrityKey = await deriveVaultIntegrityKey(account.vaultKeyBytes);
  const held = new Map<string, Held>();
  let counter = 0;
  let sum = EMPTY_SUM;

  async function nextState(): Promise<string> {
    counter += 1;
    const all = [...held.values()];
    const sealed = await sealVaultState(integrityKey, {
      counter,
      entries: all.filter((entry) => !entry.trashed).length,
      trashed: all.filter((entry) => entry.trashed).length,
      folders: 0,
      sum,
    });
    return formatVaultState(sealed);
  }

  async function send(method: string, path: string, body: unknown, headers: Record<string, string> = {}) {
    const state = await nextState();
    const answer = await client.request(method, path, body, { headers: { [VAULT_STATE_HEADER]: state, ...headers } });
    expect(answer.status, answer.raw).toBeLessThan(300);
    return answer;
  }

  const memberOf = (sent: Awaited<ReturnType<typeof sealEntry>>, revision: number): VaultEntryMember => ({
    id: sent.id,
    revision,
    serviceName: sent.serviceName,
    username: sent.username,
    password: sent.password,
    url: sent.url ?? null,
    notes: sent.notes ?? null,
    overview: null,
    details: null,
  });

  const swap = (id: string, next: Held | undefined) => {
    const before = held.get(id);
    if (before) sum = subtractElement(sum, before.element);
    if (next) {
      sum = addElement(sum, next.element);
      held.set(id, next);
    } else held.delete(id);
  };

  return {
    integrityKey,
    /** The vault's first state, over the empty vault a new account has. */
    async protect(): Promise<void> {
      const state = await nextState();
      expect((await client.request('PUT', apiPaths.vaultState, { state })).status).toBe(200);
    },
    async add(plain: PlainEntry): Promise<string> {
      const sent = await sealEntry(vaultKey, plain);
      const member = memberOf(sent, 1);
      swap(sent.id, { member, element: await entryElement(integrityKey, member), trashed: false });
      await send('POST', apiPaths.addEntry, sent);
      return sent.id;
    },
    async edit(id: string, plain: PlainEntry): Promise<void> {
      const before = held.get(id)!;
      const sent = await sealEntry(vaultKey, plain, id);
      const member = memberOf(sent, before.member.revision + 1);
      swap(id, { member, element: await entryElement(integrityKey, member), trashed: false });
      await send('PUT', apiPaths.updateEntry(id), { ...sent, revision: before.member.revision });
    },
    async trash(id: string): Promise<void> {
      const before = held.get(id)!;
      const member = { ...before.member, revision: before.member.revision + 1 };
      const at = Date.now();
      swap(id, { member, element: await trashedElementOf(integrityKey, member, at), trashed: true });
      await send('DELETE', `${apiPaths.deleteEntry(id)}?revision=${before.member.revision}`, undefined, {
        [TRASHED_AT_HEADER]: String(at),
      });
    },
    async purge(id: string): Promise<void> {
      const before = held.get(id)!;
      swap(id, undefined);
      await send('DELETE', `${apiPaths.purgeEntry(id)}?revision=${before.member.revision}`, undefined);
    },
    get counter() {
      return counter;
    },
  };
}

export type SealedWriter = Awaited<ReturnType<typeof sealedWriter>>;
