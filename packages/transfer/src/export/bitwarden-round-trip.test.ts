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

describe("match rules per web address in Bitwarden JSON (its uris' match types)", () => {
  it('are written as match numbers (null for the default) and read back as the same rules', async () => {
    const item = {
      ...emptyTransferItem('login', 'Bank'),
      username: 'alice',
      password: 'pw',
      urls: ['https://bank.example/login', 'https://bank.example', '^https://.*\\.bank\\.example/'],
      urlRules: { 'https://bank.example/login': 'exact', '^https://.*\\.bank\\.example/': 'regex' } as const,
    };
    const text = toBitwardenJson([item], { folders: [] });
    const written = JSON.parse(text) as { items: Array<{ login: { uris: { match: number | null }[] } }> };
    expect(written.items[0]?.login.uris.map((uri) => uri.match)).toEqual([3, null, 4]);
    const result = await bitwardenJsonFormat.parse({ name: 'export.json', bytes: new TextEncoder().encode(text) }, {});
    expect(result.items[0]?.urlRules).toEqual(item.urlRules);
  });

  it('reads every Bitwarden match type, and leaves an unknown one to the default', async () => {
    const uris = [0, 1, 2, 3, 4, 5, 9, null].map((match, n) => ({ uri: `https://s${n}.example`, match }));
    const file = JSON.stringify({
      encrypted: false,
      items: [{ type: 1, name: 'All', login: { username: 'u', password: 'p', uris } }],
    });
    const result = await bitwardenJsonFormat.parse({ name: 'bitwarden.json', bytes: new TextEncoder().encode(file) }, {});
    expect(result.items[0]?.urlRules).toEqual({
      'https://s0.example': 'base-domain',
      'https://s1.example': 'host',
      'https://s2.example': 'starts-with',
      'https://s3.example': 'exact',
      'https://s4.example': 'regex',
      'https://s5.example': 'never',
    });
  });
});
