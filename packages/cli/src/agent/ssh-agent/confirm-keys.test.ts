import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfirmKeys } from './confirm-keys';

let folder: string;
const ED = `SHA256:${'a'.repeat(43)}`;
const RSA = `SHA256:${'b'.repeat(43)}`;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'lockit-confirm-keys-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('ConfirmKeys (which SSH keys ask before each use)', () => {
  it('asks for no key until one is chosen, then for that key only, and stops when told', async () => {
    const keys = new ConfirmKeys(join(folder, 'one.json'));
    expect(await keys.asks(ED)).toBe(false);
    await keys.set({ fingerprint: ED, asks: true });
    expect([await keys.asks(ED), await keys.asks(RSA)]).toEqual([true, false]);
    expect((await stat(join(folder, 'one.json'))).mode & 0o777).toBe(0o600);
    await keys.set({ fingerprint: ED, asks: false });
    expect(await keys.asks(ED)).toBe(false);
  });

  it('asks for every key with "all", whatever the list says', async () => {
    const keys = new ConfirmKeys(join(folder, 'all.json'));
    await keys.set({ all: true });
    expect(await keys.asks(RSA)).toBe(true);
    await keys.set({ all: false });
    expect(await keys.asks(RSA)).toBe(false);
  });

  it.each([
    ['not JSON', '{'],
    ['a wrong shape', '{"all":"no","fingerprints":[]}'],
    ['something else than fingerprints', '{"all":false,"fingerprints":["deploy key"]}'],
  ])('fails closed on a damaged file (%s): every key asks', async (_, text) => {
    const file = join(folder, `damaged-${text.length}.json`);
    await writeFile(file, text);
    expect(await new ConfirmKeys(file).asks(ED)).toBe(true);
  });
});
