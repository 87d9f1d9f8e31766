import { describe, expect, it } from 'vitest';
import {
  aboutCreditHtml,
  DEFAULT_SITE_SETTINGS,
  footerCreditHtml,
  MAX_SOCIAL_LINKS,
  parseSiteSettings,
  siteSettingsFromMeta,
  siteSettingsJson,
  siteSettingsMetaTag,
  SiteSettingsError,
  socialLinksHtml,
  withSiteSettings,
} from './site-settings';

const problem = (env: Parameters<typeof parseSiteSettings>[0]) => {
  try {
    parseSiteSettings(env);
  } catch (error) {
    expect(error).toBeInstanceOf(SiteSettingsError);
    return (error as Error).message;
  }
  throw new Error('expected a SiteSettingsError');
};

describe('parseSiteSettings', () => {
  it('credits the contributors and links only to pages of this app when nothing is set', () => {
    expect(parseSiteSettings({})).toEqual(DEFAULT_SITE_SETTINGS);
    expect(parseSiteSettings({ LOCKIT_AUTHOR_NAME: ' ', LOCKIT_AUTHOR_URL: '', LOCKIT_SOCIAL_LINKS: '' })).toEqual(
      DEFAULT_SITE_SETTINGS,
    );
    expect(DEFAULT_SITE_SETTINGS.author.label).toBe('the Lockit contributors');
    expect(DEFAULT_SITE_SETTINGS.social).toHaveLength(3);
    for (const link of [DEFAULT_SITE_SETTINGS.author, ...DEFAULT_SITE_SETTINGS.social]) expect(link.href).toMatch(/^\/[a-z]+$/);
  });

  it('reads the author and the Label=URL social links a self-hoster sets', () => {
    expect(
      parseSiteSettings({
        LOCKIT_AUTHOR_NAME: ' Ada Lovelace ',
        LOCKIT_AUTHOR_URL: 'https://ada.example.org',
        LOCKIT_SOCIAL_LINKS: 'GitHub=https://github.com/ada, Mastodon=https://mastodon.example/@ada,Docs=/about',
      }),
    ).toEqual({
      author: { label: 'Ada Lovelace', href: 'https://ada.example.org/' },
      social: [
        { label: 'GitHub', href: 'https://github.com/ada' },
        { label: 'Mastodon', href: 'https://mastodon.example/@ada' },
        { label: 'Docs', href: '/about' },
      ],
    });
  });

  it('keeps an equals sign inside a URL', () => {
    expect(parseSiteSettings({ LOCKIT_SOCIAL_LINKS: 'Site=https://example.com/?a=b' }).social).toEqual([
      { label: 'Site', href: 'https://example.com/?a=b' },
    ]);
  });

  it('refuses an author without a profile link, or a link without an author', () => {
    expect(problem({ LOCKIT_AUTHOR_NAME: 'Ada' })).toMatch(/LOCKIT_AUTHOR_NAME and LOCKIT_AUTHOR_URL go together/);
    expect(problem({ LOCKIT_AUTHOR_URL: 'https://ada.example.org' })).toMatch(/set both or neither/);
  });

  it.each([
    ['javascript:alert(1)', 'a script URL'],
    ['//evil.example', 'a protocol-relative URL'],
    ['ada.example.org', 'a URL without its scheme'],
    ['https://', 'an http URL without a host'],
  ])('refuses %s (%s) as a link, naming the variable', (href) => {
    expect(problem({ LOCKIT_AUTHOR_NAME: 'Ada', LOCKIT_AUTHOR_URL: href })).toContain(
      `LOCKIT_AUTHOR_URL: "${href}" must be an http(s) URL`,
    );
    expect(problem({ LOCKIT_SOCIAL_LINKS: `Site=${href}` })).toContain(`LOCKIT_SOCIAL_LINKS (Site): "${href}"`);
  });

  it('refuses a social link that is not Label=URL, and too many links', () => {
    expect(problem({ LOCKIT_SOCIAL_LINKS: 'https://github.com/ada' })).toContain('"https://github.com/ada" is not Label=URL');
    expect(problem({ LOCKIT_SOCIAL_LINKS: 'GitHub=https://github.com/ada,' })).toContain('"" is not Label=URL');
    const many = Array.from({ length: MAX_SOCIAL_LINKS + 1 }, (_, n) => `L${n}=https://example.com/${n}`).join(',');
    expect(problem({ LOCKIT_SOCIAL_LINKS: many })).toContain(`at most ${MAX_SOCIAL_LINKS} links`);
  });
});

const ADA = parseSiteSettings({
  LOCKIT_AUTHOR_NAME: 'Ada <Lovelace> & "Co"',
  LOCKIT_AUTHOR_URL: 'https://ada.example.org/?a=1&b=2',
  LOCKIT_SOCIAL_LINKS: 'GitHub=https://github.com/ada,Docs=/about',
});

describe('the settings in a page', () => {
  it('escapes every label and address it writes, and opens only external links in a new tab', () => {
    expect(footerCreditHtml(ADA)).toBe(
      '<a href="https://ada.example.org/?a=1&#38;b=2" target="_blank" rel="noopener noreferrer">Ada &#60;Lovelace&#62; &#38; &#34;Co&#34;</a>',
    );
    expect(socialLinksHtml(ADA)).toBe(
      '<li><a href="https://github.com/ada" target="_blank" rel="noopener noreferrer">GitHub</a></li><li><a href="/about">Docs</a></li>',
    );
    expect(aboutCreditHtml(DEFAULT_SITE_SETTINGS, '/about')).toBe('the Lockit contributors');
  });

  it('reads back what the server wrote in the meta element, and falls back to the defaults on anything malformed', () => {
    const content = /content="([^"]*)"/.exec(siteSettingsMetaTag(ADA))![1]!;
    expect(siteSettingsFromMeta(decodeAttribute(content))).toEqual(ADA);
    expect(siteSettingsFromMeta(siteSettingsJson(ADA))).toEqual(ADA);
    for (const bad of [
      null,
      '',
      'not json',
      '{"author":{"label":"x","href":"javascript:alert(1)"},"social":[]}',
      '{"author":{"label":"x","href":"//evil.example"},"social":[]}',
      '{"author":{"label":"x","href":"/a"},"social":[1]}',
      '{"author":{"label":"","href":"/a"},"social":[]}',
    ]) {
      expect(siteSettingsFromMeta(bad)).toEqual(DEFAULT_SITE_SETTINGS);
    }
  });

  it('puts the settings into a built page: the meta element, and each default-made part made again', () => {
    const built =
      '<html><head><title>t</title></head><body><footer><ul aria-label="Social links" data-site="social-links">' +
      socialLinksHtml(DEFAULT_SITE_SETTINGS) +
      '</ul><p>Designed and built by <span data-site="footer-credit">' +
      footerCreditHtml(DEFAULT_SITE_SETTINGS) +
      '</span>.</p></footer></body></html>';
    const page = withSiteSettings(built, ADA);
    expect(page).toContain(`${siteSettingsMetaTag(ADA)}\n  </head>`);
    expect(page).toContain(`data-site="social-links">${socialLinksHtml(ADA)}</ul>`);
    expect(page).toContain(`data-site="footer-credit">${footerCreditHtml(ADA)}</span>`);
    expect(page).not.toContain('the Lockit contributors');
    // A page without the parts (the app shell) gets the meta element only.
    expect(withSiteSettings('<head></head><div id="root"></div>', ADA)).toBe(
      `<head>  ${siteSettingsMetaTag(ADA)}\n  </head><div id="root"></div>`,
    );
  });
});

/** HTML attribute text as a browser reads it: numeric character references decoded. */
function decodeAttribute(attribute: string): string {
  return attribute.replace(/&#(\d+);/g, (_match, code: string) => String.fromCharCode(Number(code)));
}
