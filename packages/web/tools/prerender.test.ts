import { describe, expect, it } from 'vitest';
import { assertNoInlineScript, scriptAtEndOfBody, withSignupModeMeta } from './prerender';

describe('the prerender build step', () => {
  it('stops the build on markup with a script element or an inline event handler', () => {
    expect(() => assertNoInlineScript('/home', '<div><script>alert(1)</script></div>')).toThrow(
      'The prerendered HTML of /home has inline script ("<script").',
    );
    expect(() => assertNoInlineScript('/signin', '<p>Hi</p><button type="button" onclick="go()">Go</button>')).toThrow(
      'The prerendered HTML of /signin has inline script ("<button type="button" onclick=").',
    );
  });

  it('lets text that merely reads like a handler through', () => {
    expect(() => assertNoInlineScript('/about', '<p>Count one = two, and on = off.</p>')).not.toThrow();
  });

  it('moves the module script from <head> to the end of <body>, leaving the stylesheet in <head>', () => {
    const shell = [
      '<html><head><title>Lockit</title>',
      '<script type="module" crossorigin src="/assets/index-1.js"></script>',
      '<link rel="stylesheet" crossorigin href="/assets/index-2.css">',
      '</head><body><div id="root"></div></body></html>',
    ].join('\n');
    const moved = scriptAtEndOfBody(shell);
    expect(moved.indexOf('<link rel="stylesheet"')).toBeLessThan(moved.indexOf('</head>'));
    expect(moved).toMatch(
      /<div id="root"><\/div>\s*<script type="module" crossorigin src="\/assets\/index-1.js"><\/script>\s*<\/body>/,
    );
    expect(moved.match(/<script\b/g)).toHaveLength(1);
  });

  it('refuses a shell without a module script to move', () => {
    expect(() => scriptAtEndOfBody('<html><head></head><body></body></html>')).toThrow(
      'index.html has no module script to move.',
    );
  });

  it('writes the sign-up mode into the head as a meta element the app reads (decision 0044)', () => {
    const page = withSignupModeMeta(
      '<html><head><title>Lockit</title></head><body></body></html>',
      'lockit-signup-mode',
      'invite',
    );
    expect(page).toMatch(/<meta name="lockit-signup-mode" content="invite" \/>\s*<\/head>/);
    expect(() => withSignupModeMeta('<html><body></body></html>', 'lockit-signup-mode', 'open')).toThrow('no </head>');
    expect(() => withSignupModeMeta('<head></head>', 'lockit-signup-mode', '"><script>')).toThrow('Not a meta name and mode');
  });
});
