import type { IntegrityReport } from '@lockit/client-core';

export const INTEGRITY_ALERT_HEADING = "The server's copy of your vault is older or incomplete.";

const entries = (count: number) => `${count} ${count === 1 ? 'entry' : 'entries'}`;
const list = (names: readonly string[]) => names.filter((name) => name !== '').join(', ');

/** The plain lines under the alert's heading: what is wrong, naming entries where the manifest could. */
export function integrityReportLines(report: IntegrityReport): string[] {
  const lines: string[] = [];
  const { counters, counts } = report;
  if (report.kind === 'missing-state')
    lines.push(`This browser saw a newer copy (change ${counters.remembered}; the server sent none).`);
  if (report.kind === 'bad-tag') lines.push("The server's record of your vault was not made with your vault key.");
  if (counters.served !== null && counters.served < counters.remembered)
    lines.push(`This browser saw a newer copy (change ${counters.remembered}; the server sent change ${counters.served}).`);
  const missing = list(report.missing);
  const withheld = counts.stateEntries === null ? 0 : counts.stateEntries - counts.entries;
  if (missing !== '') lines.push(`Missing: ${missing}.`);
  else if (withheld > 0) lines.push(`Missing: ${entries(withheld)}.`);
  const missingTrashed = list(report.missingTrashed);
  const withheldTrash = counts.stateTrashed === null ? 0 : counts.stateTrashed - counts.trashed;
  if (missingTrashed !== '') lines.push(`Missing from Trash: ${missingTrashed}.`);
  else if (withheldTrash > 0) lines.push(`Missing from Trash: ${entries(withheldTrash)}.`);
  const missingFolders = list(report.missingFolders);
  if (missingFolders !== '') lines.push(`Missing folders: ${missingFolders}.`);
  const older = list(report.older);
  if (older !== '') lines.push(`Older than this browser last saw: ${older}.`);
  if (report.unknown > 0) lines.push(`Not part of your vault: ${entries(report.unknown)}.`);
  // Same members, same revisions, same counts, yet the sum differs: a ciphertext was swapped
  // (e.g. an older one under the current revision). Never an alert that says nothing.
  if (lines.length === 0) lines.push('Some entries or folders are not what your vault key saved.');
  return lines;
}
