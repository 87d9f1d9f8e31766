import { formatVaultState } from '@lockit/contract';
import { deriveVaultIntegrityKey, generateVaultKeyBytes, sealVaultState, sumOfElements } from '@lockit/crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkVaultState, type LiveMember, type ServedLiveSet } from './check-vault-state';
import type { VaultManifest } from './vault-manifest';

let key: CryptoKey;
let otherKey: CryptoKey;
beforeAll(async () => {
  key = await deriveVaultIntegrityKey(generateVaultKeyBytes());
  otherKey = await deriveVaultIntegrityKey(generateVaultKeyBytes());
});

const element = (seed: number) => new Uint8Array(32).fill(seed);
const member = (revision: number, seed: number): LiveMember => ({ revision, element: element(seed) });

/** GitHub, Bank and Email at revision 1, and the Work folder; the ids are their names in lower case. */
const FULL: ServedLiveSet = {
  entries: new Map([
    ['github', member(1, 1)],
    ['bank', member(1, 2)],
    ['email', member(1, 3)],
  ]),
  folders: new Map([['work', member(1, 4)]]),
};
const MANIFEST: VaultManifest = {
  counter: 5,
  entries: [
    { id: 'github', revision: 1, name: 'GitHub' },
    { id: 'bank', revision: 1, name: 'Bank' },
    { id: 'email', revision: 1, name: 'Email' },
  ],
  folders: [{ id: 'work', revision: 1, name: 'Work' }],
};

/** The state string the browser sealed for `set` at `counter`, under `sealKey`. */
async function stateFor(set: ServedLiveSet, counter: number, sealKey = key): Promise<string> {
  const elements = [...set.entries.values(), ...set.folders.values()].map((each) => each.element);
  const sealed = await sealVaultState(sealKey, {
    counter,
    entries: set.entries.size,
    folders: set.folders.size,
    sum: sumOfElements(elements),
  });
  return formatVaultState(sealed);
}

const without = (set: ServedLiveSet, id: string): ServedLiveSet => {
  const entries = new Map(set.entries);
  entries.delete(id);
  return { entries, folders: set.folders };
};

describe('checkVaultState', () => {
  it('passes the very set the state was sealed for, at a counter no lower than remembered', async () => {
    const result = await checkVaultState(key, await stateFor(FULL, 5), FULL, 5, MANIFEST);
    expect(result).toMatchObject({ ok: true, state: { counter: 5, entries: 3, folders: 1 } });
  });

  it('asks for a first state when there is none and this browser never saw one', async () => {
    expect(await checkVaultState(key, null, FULL, 0, null)).toEqual({ ok: true, state: null });
  });

  it('names a withheld entry from the manifest', async () => {
    const result = await checkVaultState(key, await stateFor(FULL, 5), without(FULL, 'bank'), 5, MANIFEST);
    expect(result).toMatchObject({
      ok: false,
      report: { kind: 'incomplete', missing: ['Bank'], older: [], unknown: 0, counts: { entries: 2, stateEntries: 3 } },
    });
  });

  it('names an entry rolled back with its revision', async () => {
    const served = new Map(FULL.entries);
    served.set('email', member(1, 3));
    const current = { entries: new Map(FULL.entries).set('email', member(2, 9)), folders: FULL.folders };
    const manifest = {
      ...MANIFEST,
      entries: MANIFEST.entries.map((each) => (each.id === 'email' ? { ...each, revision: 2 } : each)),
    };
    const result = await checkVaultState(key, await stateFor(current, 6), { entries: served, folders: FULL.folders }, 6, {
      ...manifest,
      counter: 6,
    });
    expect(result).toMatchObject({ ok: false, report: { kind: 'older', older: ['Email'], missing: [] } });
  });

  it('counts a resurrected entry the state does not hold as not part of the vault', async () => {
    const state = await stateFor(without(FULL, 'bank'), 6);
    const manifest = { ...MANIFEST, counter: 6, entries: MANIFEST.entries.filter((each) => each.id !== 'bank') };
    const result = await checkVaultState(key, state, FULL, 6, manifest);
    expect(result).toMatchObject({ ok: false, report: { kind: 'unknown-members', unknown: 1, missing: [] } });
  });

  it('refuses an older state than this browser saw, though its tag is genuine', async () => {
    const result = await checkVaultState(key, await stateFor(without(FULL, 'bank'), 40), without(FULL, 'bank'), 42, {
      ...MANIFEST,
      counter: 42,
    });
    expect(result).toMatchObject({
      ok: false,
      report: { kind: 'older', counters: { served: 40, remembered: 42 }, missing: ['Bank'] },
    });
  });

  it('refuses a missing state once this browser saw one', async () => {
    const result = await checkVaultState(key, null, FULL, 3, MANIFEST);
    expect(result).toMatchObject({ ok: false, report: { kind: 'missing-state', counters: { served: null, remembered: 3 } } });
  });

  it('refuses a state sealed under another key, and one that is not a state', async () => {
    expect(await checkVaultState(key, await stateFor(FULL, 5, otherKey), FULL, 0, null)).toMatchObject({
      ok: false,
      report: { kind: 'bad-tag' },
    });
    expect(await checkVaultState(key, 'v1.5.3.1.nope.nope', FULL, 0, null)).toMatchObject({
      ok: false,
      report: { kind: 'bad-tag' },
    });
  });

  it('does not name absences against a manifest older than the served state (they may be deletions elsewhere)', async () => {
    const served = without(FULL, 'bank');
    const tampered = { entries: new Map(served.entries).set('github', member(1, 7)), folders: FULL.folders };
    const result = await checkVaultState(key, await stateFor(served, 9), tampered, 5, MANIFEST);
    expect(result).toMatchObject({ ok: false, report: { kind: 'incomplete', missing: [] } });
  });
});

describe('checkVaultState with Trash in the state (version 2)', () => {
  /** FULL, and Old Mail in Trash. */
  const WITH_TRASH: ServedLiveSet = { ...FULL, trashed: new Map([['oldmail', member(2, 5)]]) };
  const TRASH_MANIFEST: VaultManifest = { ...MANIFEST, trashed: [{ id: 'oldmail', revision: 2, name: 'Old Mail' }] };

  /** The version 2 state the browser sealed for `set` (Trash counted) at `counter`. */
  async function v2StateFor(set: ServedLiveSet, counter: number): Promise<string> {
    const trashed = [...(set.trashed ?? new Map<string, LiveMember>()).values()];
    const elements = [...set.entries.values(), ...trashed, ...set.folders.values()].map((each) => each.element);
    const sealed = await sealVaultState(key, {
      counter,
      entries: set.entries.size,
      trashed: trashed.length,
      folders: set.folders.size,
      sum: sumOfElements(elements),
    });
    return formatVaultState(sealed);
  }

  it('passes the very set, Trash included, the state was sealed for', async () => {
    const result = await checkVaultState(key, await v2StateFor(WITH_TRASH, 5), WITH_TRASH, 5, TRASH_MANIFEST);
    expect(result).toMatchObject({ ok: true, state: { counter: 5, entries: 3, trashed: 1, folders: 1 } });
  });

  it('names an entry dropped from Trash (or withheld) from the manifest', async () => {
    const result = await checkVaultState(key, await v2StateFor(WITH_TRASH, 5), FULL, 5, TRASH_MANIFEST);
    expect(result).toMatchObject({
      ok: false,
      report: { kind: 'incomplete', missingTrashed: ['Old Mail'], missing: [], counts: { trashed: 0, stateTrashed: 1 } },
    });
  });

  it('fails a trashed entry served with another element (another trash time, revision or ciphertext)', async () => {
    const altered = { ...FULL, trashed: new Map([['oldmail', member(2, 6)]]) };
    const result = await checkVaultState(key, await v2StateFor(WITH_TRASH, 5), altered, 5, TRASH_MANIFEST);
    expect(result).toMatchObject({ ok: false, report: { kind: 'incomplete', missingTrashed: [], unknown: 0 } });
  });

  it('counts an entry in Trash the state does not hold as not part of the vault', async () => {
    const result = await checkVaultState(key, await v2StateFor(FULL, 6), WITH_TRASH, 6, { ...MANIFEST, counter: 6, trashed: [] });
    expect(result).toMatchObject({ ok: false, report: { kind: 'unknown-members', unknown: 1 } });
  });

  it('still passes a version 1 state, which never covered Trash, whatever Trash is served', async () => {
    const result = await checkVaultState(key, await stateFor(FULL, 5), WITH_TRASH, 5, MANIFEST);
    expect(result).toMatchObject({ ok: true, state: { counter: 5, entries: 3, folders: 1 } });
    expect(result.ok && result.state?.trashed).toBeUndefined();
  });
});
