import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confirmUse } from './confirm-use';

let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'lockit-askpass-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

/** An askpass program: records its prompt variable and question, then runs `body`. */
async function askpass(name: string, body: string): Promise<string> {
  const file = join(folder, name);
  await writeFile(file, `#!/bin/sh\nprintf '%s\\n%s' "$SSH_ASKPASS_PROMPT" "$1" > "${file}.asked"\n${body}\n`);
  await chmod(file, 0o700);
  return file;
}

describe('confirmUse (the askpass convention of ssh-add -c)', () => {
  it('allows a use when the program exits 0 with no answer, and passes SSH_ASKPASS_PROMPT=confirm and the question', async () => {
    const program = await askpass('ok', 'exit 0');
    expect(await confirmUse({ program, env: {} }, 'Allow use of key deploy?')).toBe(true);
    expect(await readFile(`${program}.asked`, 'utf8')).toBe('confirm\nAllow use of key deploy?');
  });

  it('allows a use answered "yes"', async () => {
    expect(await confirmUse({ program: await askpass('yes', 'echo YES'), env: {} }, 'q')).toBe(true);
  });

  it.each([
    ['a non-zero exit (the person clicked No)', 'exit 1'],
    ['another answer on exit 0', 'echo no'],
    ['a program killed by a signal', 'kill -9 $$'],
  ])('refuses on %s', async (_, body) => {
    expect(await confirmUse({ program: await askpass(`no-${body.length}`, body), env: {} }, 'q')).toBe(false);
  });

  it('refuses when there is no askpass program to ask with', async () => {
    expect(await confirmUse({ program: join(folder, 'not-installed'), env: {} }, 'q')).toBe(false);
  });

  it('refuses when nobody answers within the time allowed, and stops the program', async () => {
    const program = await askpass('hang', 'sleep 30');
    const started = Date.now();
    expect(await confirmUse({ program, env: {} }, 'q', 300)).toBe(false);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('hands the program the display of the shell that ran lockit ssh-agent', async () => {
    const program = await askpass('display', 'test "$DISPLAY" = ":7"');
    expect(await confirmUse({ program, env: { DISPLAY: ':7' } }, 'q')).toBe(true);
    expect(await confirmUse({ program, env: { DISPLAY: ':8' } }, 'q')).toBe(false);
  });
});
