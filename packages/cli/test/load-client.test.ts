import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleIsCurrent } from '../bin/load-client.js';

let folder: string;
const root = () => pathToFileURL(`${folder}/`);
const at = (seconds: number) => new Date(1_800_000_000_000 + seconds * 1000);

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'lockit-load-client-'));
  for (const sub of ['src/client', 'src/shared', 'dist']) await mkdir(join(folder, sub), { recursive: true });
  for (const file of ['src/client/main.js', 'src/shared/refs.js']) {
    await writeFile(join(folder, file), '');
    await utimes(join(folder, file), at(0), at(0));
  }
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('the thin client runs its bundle only while the bundle is current', () => {
  it('runs from the sources when there is no bundle (a clone without a build)', () => {
    expect(bundleIsCurrent(root())).toBe(false);
  });

  it('runs the bundle when it is newer than every source file', async () => {
    await writeFile(join(folder, 'dist/lockit.mjs'), '');
    await utimes(join(folder, 'dist/lockit.mjs'), at(10), at(10));
    expect(bundleIsCurrent(root())).toBe(true);
  });

  it('runs from the sources again once a source file is edited after the build', async () => {
    await utimes(join(folder, 'src/shared/refs.js'), at(20), at(20));
    expect(bundleIsCurrent(root())).toBe(false);
  });
});
