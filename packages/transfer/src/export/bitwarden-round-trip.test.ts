import { describe, expect, it } from 'vitest';
import { sampleVault } from '../../test/fixtures/sample-vault';
import { transferItemOf } from '../backup/backup-contents';
import { bitwardenJsonFormat } from '../formats/bitwarden-json';
import { emptyTransferItem } from '../transfer-item';
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

describe('an SSH key in the Bitwarden JSON export', () => {
  it("is Bitwarden's SSH key item (type 5) and reads back as the same SSH key", async () => {
    const item = {
      ...emptyTransferItem('sshKey', 'Deploy key'),
      sshKey: {
        privateKey: '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n',
        publicKey: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIP/c7kPtfO2ld7kb0pxAF3YzdjOpJo4FusWsY72pEWCW laptop',
        fingerprint: 'SHA256:R00ATZLaWB9yU3LuvWbcc1hpFCz0vY3dldXMN1Gq460',
      },
    };
    const text = toBitwardenJson([item], { folders: [] });
    const written = JSON.parse(text) as { items: Array<{ type: number; sshKey: unknown }> };
    expect(written.items[0]?.type).toBe(5);
    expect(written.items[0]?.sshKey).toEqual({
      privateKey: item.sshKey.privateKey,
      publicKey: item.sshKey.publicKey,
      keyFingerprint: item.sshKey.fingerprint,
    });
    const result = await bitwardenJsonFormat.parse({ name: 'export.json', bytes: new TextEncoder().encode(text) }, {});
    expect(result.items[0]?.type).toBe('sshKey');
    expect(result.items[0]?.sshKey).toEqual(item.sshKey);
  });
});
