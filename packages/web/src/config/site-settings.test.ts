import { describe, expect, it } from 'vitest';
import { paths } from './paths';
import { DEFAULT_SITE_SETTINGS, MAX_SOCIAL_LINKS, parseSiteSettings, SiteSettingsError } from './site-settings';

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
    expect(parseSiteSettings({ VITE_LOCKIT_AUTHOR_NAME: ' ', VITE_LOCKIT_AUTHOR_URL: '', VITE_LOCKIT_SOCIAL_LINKS: '' })).toEqual(
      DEFAULT_SITE_SETTINGS,
    );
    expect(DEFAULT_SITE_SETTINGS.author.label).toBe('the Lockit contributors');
    const appPaths: string[] = Object.values(paths);
    expect(DEFAULT_SITE_SETTINGS.social).toHaveLength(3);
    for (const link of [DEFAULT_SITE_SETTINGS.author, ...DEFAULT_SITE_SETTINGS.social]) expect(appPaths).toContain(link.href);
  });

  it('reads the author and the Label=URL social links a self-hoster sets', () => {
    expect(
      parseSiteSettings({
        VITE_LOCKIT_AUTHOR_NAME: ' Ada Lovelace ',
        VITE_LOCKIT_AUTHOR_URL: 'https://ada.example.org',
        VITE_LOCKIT_SOCIAL_LINKS: 'GitHub=https://github.com/ada, Mastodon=https://mastodon.example/@ada,Docs=/about',
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
    expect(parseSiteSettings({ VITE_LOCKIT_SOCIAL_LINKS: 'Site=https://example.com/?a=b' }).social).toEqual([
      { label: 'Site', href: 'https://example.com/?a=b' },
    ]);
  });

  it('refuses an author without a profile link, or a link without an author', () => {
    expect(problem({ VITE_LOCKIT_AUTHOR_NAME: 'Ada' })).toMatch(/VITE_LOCKIT_AUTHOR_NAME and VITE_LOCKIT_AUTHOR_URL go together/);
    expect(problem({ VITE_LOCKIT_AUTHOR_URL: 'https://ada.example.org' })).toMatch(/set both or neither/);
  });

  it.each([
    ['javascript:alert(1)', 'a script URL'],
    ['//evil.example', 'a protocol-relative URL'],
    ['ada.example.org', 'a URL without its scheme'],
    ['https://', 'an http URL without a host'],
  ])('refuses %s (%s) as a link, naming the variable', (href) => {
    expect(problem({ VITE_LOCKIT_AUTHOR_NAME: 'Ada', VITE_LOCKIT_AUTHOR_URL: href })).toContain(
      `VITE_LOCKIT_AUTHOR_URL: "${href}" must be an http(s) URL`,
    );
    expect(problem({ VITE_LOCKIT_SOCIAL_LINKS: `Site=${href}` })).toContain(`VITE_LOCKIT_SOCIAL_LINKS (Site): "${href}"`);
  });

  it('refuses a social link that is not Label=URL, and too many links', () => {
    expect(problem({ VITE_LOCKIT_SOCIAL_LINKS: 'https://github.com/ada' })).toContain(
      '"https://github.com/ada" is not Label=URL',
    );
    expect(problem({ VITE_LOCKIT_SOCIAL_LINKS: 'GitHub=https://github.com/ada,' })).toContain('"" is not Label=URL');
    const many = Array.from({ length: MAX_SOCIAL_LINKS + 1 }, (_, n) => `L${n}=https://example.com/${n}`).join(',');
    expect(problem({ VITE_LOCKIT_SOCIAL_LINKS: many })).toContain(`at most ${MAX_SOCIAL_LINKS} links`);
  });
});
