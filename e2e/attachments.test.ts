import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { PHONE } from '@lockit/test-support/chromium';
import { useE2e } from './support/setup';
import { newAccount, signIn, signUpViaApi } from './support/journeys';
import { filesOf as files, openItemFiles as openItem } from './support/files-section';
import { addEntry, openVault, rowOf } from './support/vault-page';

const e2e = useE2e();
const shots = process.env.LOCKIT_E2E_SCREENSHOTS;

describe('Attachments in the browser', () => {
  it('attaches a file to an entry, and after a reload downloads the very same bytes', async () => {
    const account = newAccount('files');
    await signUpViaApi(e2e.server, e2e.smtp, account);
    const context = await e2e.newContext();
    const page = await context.newPage();
    await signIn(page, account.username, account.password);
    await openVault(page);
    await addEntry(page, { service: 'Birch Bank', username: 'ada', password: 'b1rch!' });
    await openItem(page, 'Birch Bank');

    // Three and a bit chunks, so the order and the last chunk are both checked on the way back.
    const bytes = randomBytes(200_000);
    await files(page)
      .getByLabel('Choose a file to attach')
      .setInputFiles({ name: 'statement 2026.pdf', mimeType: 'application/pdf', buffer: bytes });
    const row = files(page).getByRole('listitem', { name: 'statement 2026.pdf' });
    await row.waitFor();
    expect(await row.textContent()).toContain('195.3 KB');
    if (shots) await page.screenshot({ path: `${shots}/attachments-1280.png` });

    await page.reload();
    await rowOf(page, 'Birch Bank').waitFor();
    await openItem(page, 'Birch Bank');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      files(page).getByRole('button', { name: 'Download statement 2026.pdf' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('statement 2026.pdf');
    const saved = await readFile((await download.path())!);
    expect(Buffer.compare(saved, bytes)).toBe(0);
    await context.close();

    if (shots) {
      const phone = await e2e.newContext({ viewport: PHONE });
      const small = await phone.newPage();
      await signIn(small, account.username, account.password);
      await small.getByRole('button', { name: 'Open menu' }).click();
      await small.getByRole('navigation', { name: 'Mobile' }).getByRole('link', { name: 'Vault' }).click();
      await openItem(small, 'Birch Bank');
      await files(small).getByRole('listitem', { name: 'statement 2026.pdf' }).waitFor();
      await files(small).scrollIntoViewIfNeeded();
      await small.screenshot({ path: `${shots}/attachments-375.png` });
      await phone.close();
    }
  });
});
