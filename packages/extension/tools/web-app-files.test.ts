import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { webAppFiles } from './web-app-files.mjs';

const dist = mkdtempSync(join(tmpdir(), 'lockit-web-app-files-'));
afterAll(() => rmSync(dist, { recursive: true, force: true }));

describe('webAppFiles (the hashes the extension build embeds)', () => {
  it('stops when the web app is not built', () => {
    expect(() => webAppFiles(join(dist, 'missing'))).toThrow(/The web app is not built at .*: .*npm run build/);
  });

  it('lists every script, stylesheet and wasm file by the path it is served at, and nothing else', () => {
    mkdirSync(join(dist, 'assets'));
    const files = {
      'index.html': '<html></html>',
      'sw.js': 'self.worker = 1;',
      'assets/index-a1.js': 'app()',
      'assets/index-a1.js.br': 'compressed',
      'assets/index-a1.js.gz': 'compressed',
      'assets/index-b2.css': 'body{}',
      'assets/argon-c3.wasm': 'wasm',
      'assets/index-a1.js.map': '{}',
      'manifest.webmanifest': '{}',
    };
    for (const [file, text] of Object.entries(files)) writeFileSync(join(dist, file), text);
    const hash = (text: string) => createHash('sha256').update(text).digest('base64');
    expect(webAppFiles(dist)).toEqual({
      '/assets/argon-c3.wasm': hash('wasm'),
      '/assets/index-a1.js': hash('app()'),
      '/assets/index-b2.css': hash('body{}'),
      '/sw.js': hash('self.worker = 1;'),
    });
  });
});
