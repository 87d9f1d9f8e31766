// Draws the installed app's PNG icons from public/favicon.svg with Debian's Chromium, so the
// icons are the logo itself rather than a second drawing to keep in step. Run after changing
// the logo: `node --import tsx scripts/make-app-icons.ts` (the PNGs are committed).
import { readFile, writeFile } from 'node:fs/promises';
import { launchChromium } from '@lockit/test-support/chromium';

const PUBLIC = new URL('../packages/web/public/', import.meta.url);

/** A maskable icon's safe zone is the middle 80 %: the logo sits inside it on the app's colour. */
const ICONS = [
  { file: 'icons/icon-192.png', size: 192, maskable: false },
  { file: 'icons/icon-512.png', size: 512, maskable: false },
  { file: 'icons/icon-maskable-512.png', size: 512, maskable: true },
] as const;

const svg = await readFile(new URL('favicon.svg', PUBLIC), 'utf8');
const browser = await launchChromium();
try {
  for (const icon of ICONS) {
    const page = await browser.newPage({ viewport: { width: icon.size, height: icon.size } });
    const inset = icon.maskable ? Math.round(icon.size * 0.2) : 0;
    const logo = icon.size - 2 * inset;
    await page.setContent(
      `<body style="margin:0;background:${icon.maskable ? '#020617' : 'transparent'}">` +
        `<div style="position:absolute;left:${inset}px;top:${inset}px;width:${logo}px;height:${logo}px">` +
        svg.replace('<svg ', `<svg width="${logo}" height="${logo}" `) +
        '</div></body>',
    );
    const png = await page.screenshot({
      omitBackground: !icon.maskable,
      clip: { x: 0, y: 0, width: icon.size, height: icon.size },
    });
    await writeFile(new URL(icon.file, PUBLIC), png);
    await page.close();
  }
} finally {
  await browser.close();
}
