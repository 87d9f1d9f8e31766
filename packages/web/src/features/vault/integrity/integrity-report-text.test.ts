import { describe, expect, it } from 'vitest';
import type { IntegrityReport } from './check-vault-state';
import { integrityReportLines } from './integrity-report-text';

const report = (parts: Partial<IntegrityReport>): IntegrityReport => ({
  kind: 'incomplete',
  missing: [],
  missingFolders: [],
  older: [],
  unknown: 0,
  counts: { entries: 4, folders: 1, stateEntries: 4, stateFolders: 1 },
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
          counts: { entries: 2, folders: 1, stateEntries: 4, stateFolders: 1 },
        }),
      ),
    ).toEqual(['Missing: GitHub, Bank.', 'Older than this browser last saw: Email.']);
  });

  it('still says something when only a ciphertext differs (same members, revisions and counts)', () => {
    expect(integrityReportLines(report({}))).toEqual(['Some entries or folders are not what your vault key saved.']);
  });
});
