import { describe, expect, it } from 'vitest';
import type { IntegrityReport } from '@lockit/client-core';
import { integrityReportLines } from './integrity-report-text';

const report = (parts: Partial<IntegrityReport>): IntegrityReport => ({
  kind: 'incomplete',
  missing: [],
  missingFolders: [],
  missingTrashed: [],
  older: [],
  unknown: 0,
  counts: { entries: 4, folders: 1, trashed: 0, stateEntries: 4, stateFolders: 1, stateTrashed: null },
  counters: { served: 7, remembered: 7 },
  olderButWhole: false,
  ...parts,
});

describe('integrityReportLines', () => {
  it('names the missing and older entries the manifest knows', () => {
    expect(
      integrityReportLines(
        report({
          missing: ['GitHub', 'Bank'],
          older: ['Email'],
          counts: { entries: 2, folders: 1, trashed: 0, stateEntries: 4, stateFolders: 1, stateTrashed: null },
        }),
      ),
    ).toEqual(['Missing: GitHub, Bank.', 'Older than this browser last saw: Email.']);
  });

  it('names the entries missing from Trash the manifest knows, and counts them where it knows none', () => {
    const counts = { entries: 4, folders: 1, trashed: 1, stateEntries: 4, stateFolders: 1, stateTrashed: 3 };
    expect(integrityReportLines(report({ missingTrashed: ['Fir Notes', 'Old Bank'], counts }))).toEqual([
      'Missing from Trash: Fir Notes, Old Bank.',
    ]);
    expect(integrityReportLines(report({ counts }))).toEqual(['Missing from Trash: 2 entries.']);
  });

  it('still says something when only a ciphertext differs (same members, revisions and counts)', () => {
    expect(integrityReportLines(report({}))).toEqual(['Some entries or folders are not what your vault key saved.']);
  });
});
