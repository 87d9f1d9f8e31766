import { parseVaultState } from '@lockit/contract';
import { sumFromState, sumOfElements, verifyVaultState, type SealedVaultState } from '@lockit/crypto';
import type { VaultManifest } from './vault-manifest';

/** A member of the live set as the browser computed it from what the server served. */
export interface LiveMember {
  revision: number;
  element: Uint8Array;
}

/**
 * The vault the server served: live entries, every folder and (decision 0061) the entries in
 * Trash, each by id with its element in the set (a trashed one's binds its trash time). A
 * version 1 state does not cover Trash: `trashed` is then left out of the sum and counts.
 */
export interface ServedLiveSet {
  entries: ReadonlyMap<string, LiveMember>;
  folders: ReadonlyMap<string, LiveMember>;
  trashed?: ReadonlyMap<string, LiveMember>;
}

const NONE: ReadonlyMap<string, LiveMember> = new Map();

/**
 * Why the served vault is not the one this browser's key sealed:
 * - missing-state: no state, though this browser saw one for the account;
 * - bad-tag: a state that is not one, or whose tag does not verify under this vault's key;
 * - older: a counter below the highest this browser saw, or entries at older revisions;
 * - incomplete: fewer members than the state counts (withheld or deleted);
 * - unknown-members: more members than the state counts (resurrected or made up).
 */
export type IntegrityProblem = 'missing-state' | 'bad-tag' | 'older' | 'incomplete' | 'unknown-members';

export interface IntegrityReport {
  kind: IntegrityProblem;
  /** Names of entries (and folders) the manifest holds that the server did not serve. */
  missing: string[];
  missingFolders: string[];
  /** Names of entries the manifest holds in Trash that the server did not serve there (dropped or withheld). */
  missingTrashed: string[];
  /** Names of entries served at a lower revision than the manifest holds. */
  older: string[];
  /** Members served that are not part of the vault (beyond the state's count, or not in the manifest). */
  unknown: number;
  /**
   * Live entries, entries in Trash and folders served, and what the state says there should be
   * (null: no usable state, or for Trash a version 1 state, which does not count it).
   */
  counts: {
    entries: number;
    folders: number;
    trashed: number;
    stateEntries: number | null;
    stateFolders: number | null;
    stateTrashed: number | null;
  };
  /** The served state's counter (null: none or unreadable) and the highest this browser remembers. */
  counters: { served: number | null; remembered: number };
  /**
   * The served vault is whole, only older than this browser saw: a state sealed under this
   * vault's key that its members match, below the remembered counter (or no state at all).
   * What an operator's restore of a backup looks like; the person may choose to take it.
   */
  olderButWhole: boolean;
}

export type VaultStateCheck =
  /** The served state verified and matches the set: it becomes this tab's current state. */
  | { ok: true; state: SealedVaultState }
  /** No state on the server, and this browser never saw one: the caller makes the first (counter 1). */
  | { ok: true; state: null }
  | { ok: false; report: IntegrityReport };

/**
 * The whole-vault check (decisions 0053, 0061): the served state's tag verifies under the
 * integrity key; its counter is no lower than the highest this browser remembers for the
 * account; the sum of the served members' elements and the counts equal the state's (live
 * entries, folders and, for a version 2 state, the entries in Trash with their trash times).
 * O(n) additions over elements the workers already computed; no ciphertext is read here.
 *
 * Security invariants: only a state sealed under this vault's integrity key can pass, so the
 * server can neither forge one nor pass off another account's; a state the browser saw
 * superseded (lower counter) or a missing one after one was seen is a failure, never "no
 * state". The manifest is used only to NAME what is wrong, never to decide whether it is.
 */
export async function checkVaultState(
  key: CryptoKey,
  served: string | null,
  live: ServedLiveSet,
  remembered: number,
  manifest: VaultManifest | null,
): Promise<VaultStateCheck> {
  const fail = (kind: IntegrityProblem, state: SealedVaultState | null, olderButWhole = false): VaultStateCheck => ({
    ok: false,
    report: { ...reportOf(kind, state, live, remembered, manifest), olderButWhole },
  });
  if (served === null) return remembered > 0 ? fail('missing-state', null, true) : { ok: true, state: null };
  const state = parseVaultState(served);
  if (state === null || !(await verifyVaultState(key, state))) return fail('bad-tag', null);
  const trashed = coveredTrash(state, live);
  const sum = sumOfElements(
    [...live.entries.values(), ...trashed.values(), ...live.folders.values()].map((member) => member.element),
  );
  const sameSum = equalBytes(sum, sumFromState(state));
  const whole =
    sameSum &&
    state.entries === live.entries.size &&
    (state.trashed ?? 0) === trashed.size &&
    state.folders === live.folders.size;
  if (state.counter < remembered) return fail('older', state, whole);
  if (whole) return { ok: true, state };
  const members = live.entries.size + trashed.size + live.folders.size;
  const expected = state.entries + (state.trashed ?? 0) + state.folders;
  if (members < expected) return fail('incomplete', state);
  if (members > expected) return fail('unknown-members', state);
  const report = reportOf('incomplete', state, live, remembered, manifest);
  const kind: IntegrityProblem = report.older.length > 0 ? 'older' : report.unknown > 0 ? 'unknown-members' : 'incomplete';
  return { ok: false, report: { ...report, kind } };
}

/** The served Trash, where the state covers it (version 2); none for a version 1 state. */
const coveredTrash = (state: SealedVaultState | null, live: ServedLiveSet) =>
  state?.trashed === undefined ? NONE : (live.trashed ?? NONE);

function reportOf(
  kind: IntegrityProblem,
  state: SealedVaultState | null,
  live: ServedLiveSet,
  remembered: number,
  manifest: VaultManifest | null,
): IntegrityReport {
  const trashed = coveredTrash(state, live);
  const report: IntegrityReport = {
    kind,
    missing: [],
    missingFolders: [],
    missingTrashed: [],
    older: [],
    unknown: 0,
    counts: {
      entries: live.entries.size,
      folders: live.folders.size,
      trashed: trashed.size,
      stateEntries: state?.entries ?? null,
      stateFolders: state?.folders ?? null,
      stateTrashed: state?.trashed ?? null,
    },
    counters: { served: state?.counter ?? null, remembered },
    olderButWhole: false,
  };
  if (state) {
    const served = live.entries.size + trashed.size + live.folders.size;
    report.unknown = Math.max(0, served - state.entries - (state.trashed ?? 0) - state.folders);
  }
  if (!manifest) return report;
  // Revisions only grow: an entry served below the revision the manifest holds is a rollback,
  // whatever happened elsewhere since.
  for (const { id, revision, name } of manifest.entries) {
    const served = live.entries.get(id);
    if (served && served.revision < revision) report.older.push(name);
  }
  // Absence and strangers can be named only against the very state the manifest was made at
  // (or a later one it saw): after other devices' changes (a higher counter), an entry gone may
  // have been deleted there.
  if (state !== null && manifest.counter < state.counter) return report;
  const known = new Set(manifest.entries.map((member) => member.id));
  const knownFolders = new Set(manifest.folders.map((member) => member.id));
  for (const { id, name } of manifest.entries) if (!live.entries.has(id)) report.missing.push(name);
  for (const { id, name } of manifest.folders) if (!live.folders.has(id)) report.missingFolders.push(name);
  let strangers = 0;
  for (const id of live.entries.keys()) if (!known.has(id)) strangers += 1;
  for (const id of live.folders.keys()) if (!knownFolders.has(id)) strangers += 1;
  // Trash is named only from a manifest that listed it (one made under a version 2 state).
  if (state?.trashed !== undefined && manifest.trashed !== undefined) {
    const knownTrashed = new Set(manifest.trashed.map((member) => member.id));
    for (const { id, name } of manifest.trashed) if (!trashed.has(id)) report.missingTrashed.push(name);
    for (const id of trashed.keys()) if (!knownTrashed.has(id)) strangers += 1;
  }
  report.unknown = Math.max(report.unknown, strangers);
  return report;
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
