import { describe, expect, it } from 'vitest';
import { sampleVault } from '../../test/fixtures/sample-vault';
import { transferItemOf } from '../backup/backup-contents';
import { bitwardenJsonFormat } from '../formats/bitwarden-json';
import { toBitwardenJson } from './bitwarden-json';

describe('Bitwarden JSON export, read back by the Bitwarden importer', () => {
  it('gives the same items field by field', async () => {
    const items = sampleVault().items.map(transferItemOf);
    const text = toBitwardenJson(items, { folders: sampleVault().folders });
    const file = { name: 'lockit-bitwarden-2024-04-01.json', bytes: new TextEncoder().encode(text) };
    expect(bitwardenJsonFormat.detect(file)).toBeGreaterThan(0.5);
    const result = await bitwardenJsonFormat.parse(file, {});
    expect(result.skipped).toEqual([]);
    expect(result.items).toEqual(items);
  });
});
