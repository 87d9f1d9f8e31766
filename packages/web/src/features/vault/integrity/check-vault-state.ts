import { parseVaultState } from '@lockit/contract';
import { sumFromState, sumOfElements, verifyVaultState, type SealedVaultState } from '@lockit/crypto';
import type { VaultManifest } from './vault-manifest';

/** A member of the live set as the browser computed it from what the server served. */
export interface LiveMember {
  revision: number;
  element: Uint8Array;
}

/** The live set the server served: live entries and every folder, by id. */
export interface ServedLiveSet {
  entries: ReadonlyMap<string, LiveMember>;
  folders: ReadonlyMap<string, LiveMember>;
}

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
  /** Names of entries served at a lower revision than the manifest holds. */
  older: string[];
  /** Members served that are not part of the vault (beyond the state's count, or not in the manifest). */
  unknown: number;
  /** Live entries and folders served, and what the state says there should be (null: no usable state). */
  counts: { entries: number; folders: number; stateEntries: number | null; stateFolders: number | null };
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
 * The whole-vault check (decision 0053): the served state's tag verifies under the integrity
 * key; its counter is no lower than the highest this browser remembers for the account; the
 * sum of the served members' elements and the counts equal the state's. O(n) additions over
 * elements the workers already computed; no ciphertext is read here.
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
  const sum = sumOfElements([...live.entries.values(), ...live.folders.values()].map((member) => member.element));
  const sameSum = equalBytes(sum, sumFromState(state));
  const whole = sameSum && state.entries === live.entries.size && state.folders === live.folders.size;
  if (state.counter < remembered) return fail('older', state, whole);
  if (whole) return { ok: true, state };
  const members = live.entries.size + live.folders.size;
  const expected = state.entries + state.folders;
  if (members < expected) return fail('incomplete', state);
  if (members > expected) return fail('unknown-members', state);
  const report = reportOf('incomplete', state, live, remembered, manifest);
  const kind: IntegrityProblem = report.older.length > 0 ? 'older' : report.unknown > 0 ? 'unknown-members' : 'incomplete';
  return { ok: false, report: { ...report, kind } };
}

function reportOf(
  kind: IntegrityProblem,
  state: SealedVaultState | null,
  live: ServedLiveSet,
  remembered: number,
  manifest: VaultManifest | null,
): IntegrityReport {
  const report: IntegrityReport = {
    kind,
    missing: [],
    missingFolders: [],
    older: [],
    unknown: 0,
    counts: {
      entries: live.entries.size,
      folders: live.folders.size,
      stateEntries: state?.entries ?? null,
      stateFolders: state?.folders ?? null,
    },
    counters: { served: state?.counter ?? null, remembered },
    olderButWhole: false,
  };
  if (state) report.unknown = Math.max(0, live.entries.size + live.folders.size - state.entries - state.folders);
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
  report.unknown = Math.max(report.unknown, strangers);
  return report;
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
