/**
 * Who runs this Lockit and where to find them: the footer's credit line and social links, and
 * the About page's credit (decision 0082). Runtime settings of the server (LOCKIT_AUTHOR_NAME,
 * LOCKIT_AUTHOR_URL, LOCKIT_SOCIAL_LINKS; docs/configuration.md), not of the web app's build, so
 * every operator of a release serves the very same scripts, which the browser extension checks.
 *
 * The server writes the settings into each HTML page it sends: a meta element the app reads
 * before its first render, and the credit's markup itself in the prerendered pages, made by the
 * functions below from the same values, so the first paint, the page's HTML and the app's
 * render agree. Zod-free and import-free: the first paint's code and the server both load it.
 *
 * Security invariant: every label and address is HTML-escaped here, and an address is an
 * http(s) URL or a path of the app (checked by parseSiteSettings and again by
 * siteSettingsFromMeta), so no setting can put markup or a script into a page.
 */

/** A link: an absolute http(s) URL (opens in a new tab), or a path of this app. */
export interface SiteLink {
  label: string;
  href: string;
}

export interface SiteSettings {
  /** The credit line names `author.label` and links to `author.href`. */
  author: SiteLink;
  social: SiteLink[];
}

export interface SiteEnv {
  LOCKIT_AUTHOR_NAME?: string | undefined;
  LOCKIT_AUTHOR_URL?: string | undefined;
  LOCKIT_SOCIAL_LINKS?: string | undefined;
}

export const MAX_SOCIAL_LINKS = 5;
const MAX_LABEL = 100;

/** The meta element carrying the settings as JSON: `<meta name="lockit-site" content="…">`. */
export const SITE_SETTINGS_META = 'lockit-site';

/**
 * Unconfigured, the app names no person and links to no profile it does not know: the credit
 * goes to the project's contributors and the links to the app's own pages.
 */
export const DEFAULT_SITE_SETTINGS: SiteSettings = {
  author: { label: 'the Lockit contributors', href: '/about' },
  social: [
    { label: 'Home', href: '/home' },
    { label: 'About', href: '/about' },
    { label: 'Vault', href: '/vault' },
  ],
};

export class SiteSettingsError extends Error {
  override name = 'SiteSettingsError';
}

/** True for an absolute http(s) URL, false for a path of this app. */
export function isExternalHref(href: string): boolean {
  return /^https?:\/\//i.test(href);
}

/** Reads the LOCKIT_* variables; unset or empty ones keep their default. Throws SiteSettingsError. */
export function parseSiteSettings(env: SiteEnv): SiteSettings {
  const name = env.LOCKIT_AUTHOR_NAME?.trim() ?? '';
  const url = env.LOCKIT_AUTHOR_URL?.trim() ?? '';
  if ((name === '') !== (url === '')) {
    throw new SiteSettingsError(
      'LOCKIT_AUTHOR_NAME and LOCKIT_AUTHOR_URL go together (a credit names an author and links to their profile): set both or neither.',
    );
  }
  const author = name
    ? { label: checkedLabel('LOCKIT_AUTHOR_NAME', name), href: checkedHref('LOCKIT_AUTHOR_URL', url) }
    : DEFAULT_SITE_SETTINGS.author;
  const links = env.LOCKIT_SOCIAL_LINKS?.trim() ?? '';
  return { author, social: links ? parseSocialLinks(links) : DEFAULT_SITE_SETTINGS.social };
}

/** `Label=URL` pairs separated by commas, e.g. `GitHub=https://github.com/ada,Mastodon=https://…`. */
function parseSocialLinks(text: string): SiteLink[] {
  const links = text.split(',').map((pair) => {
    const at = pair.indexOf('=');
    const label = pair.slice(0, at).trim();
    if (at < 0 || label === '') {
      throw new SiteSettingsError(
        `LOCKIT_SOCIAL_LINKS: "${pair.trim()}" is not Label=URL (pairs are separated by commas, e.g. GitHub=https://github.com/you).`,
      );
    }
    return {
      label: checkedLabel(`LOCKIT_SOCIAL_LINKS (${label})`, label),
      href: checkedHref(`LOCKIT_SOCIAL_LINKS (${label})`, pair.slice(at + 1).trim()),
    };
  });
  if (links.length > MAX_SOCIAL_LINKS) {
    throw new SiteSettingsError(`LOCKIT_SOCIAL_LINKS: at most ${MAX_SOCIAL_LINKS} links, got ${links.length}.`);
  }
  return links;
}

function checkedLabel(variable: string, label: string): string {
  if (label.length > MAX_LABEL) throw new SiteSettingsError(`${variable}: at most ${MAX_LABEL} characters.`);
  return label;
}

function checkedHref(variable: string, href: string): string {
  if (href.startsWith('/') && !href.startsWith('//')) return href;
  if (isExternalHref(href)) {
    try {
      return new URL(href).href;
    } catch {
      // reported below
    }
  }
  throw new SiteSettingsError(
    `${variable}: "${href}" must be an http(s) URL such as https://example.com/you, or a path of this app such as /about.`,
  );
}

/** The meta element's content: the settings as JSON (escaped where it is written, see siteSettingsMetaTag). */
export function siteSettingsJson(settings: SiteSettings): string {
  return JSON.stringify({ author: settings.author, social: settings.social });
}

/** `<meta name="lockit-site" content="…">` for a page's <head>. */
export function siteSettingsMetaTag(settings: SiteSettings): string {
  return `<meta name="${SITE_SETTINGS_META}" content="${escapeHtml(siteSettingsJson(settings))}" />`;
}

/**
 * The settings a page carries in its meta element; the defaults when it has none (the
 * development server, a page of an unconfigured server) or when it is malformed in any way.
 */
export function siteSettingsFromMeta(content: string | null | undefined): SiteSettings {
  if (!content) return DEFAULT_SITE_SETTINGS;
  try {
    const value = JSON.parse(content) as { author?: unknown; social?: unknown };
    const author = asLink(value.author);
    const social = Array.isArray(value.social) ? value.social.map(asLink) : null;
    if (author === null || social === null || social.length > MAX_SOCIAL_LINKS || social.includes(null))
      return DEFAULT_SITE_SETTINGS;
    return { author, social: social as SiteLink[] };
  } catch {
    return DEFAULT_SITE_SETTINGS;
  }
}

function asLink(value: unknown): SiteLink | null {
  if (typeof value !== 'object' || value === null) return null;
  const { label, href } = value as { label?: unknown; href?: unknown };
  if (typeof label !== 'string' || typeof href !== 'string' || label.trim() === '' || label.length > MAX_LABEL) return null;
  try {
    return { label, href: checkedHref('link', href) };
  } catch {
    return null;
  }
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** One link's markup: an external profile opens in a new tab without handing it this page. */
export function siteLinkHtml(link: SiteLink): string {
  const external = isExternalHref(link.href) ? ' target="_blank" rel="noopener noreferrer"' : '';
  return `<a href="${escapeHtml(link.href)}"${external}>${escapeHtml(link.label)}</a>`;
}

/** The footer's credit: the author's link. */
export function footerCreditHtml(settings: SiteSettings): string {
  return siteLinkHtml(settings.author);
}

/** The About page's credit: plain text when it points at the About page itself (a link to itself leads nowhere). */
export function aboutCreditHtml(settings: SiteSettings, aboutPath: string): string {
  return settings.author.href === aboutPath ? escapeHtml(settings.author.label) : siteLinkHtml(settings.author);
}

/** The footer's social links, as the items of its list. */
export function socialLinksHtml(settings: SiteSettings): string {
  return settings.social.map((link) => `<li>${siteLinkHtml(link)}</li>`).join('');
}

/**
 * The parts of the app's markup made from the settings, by the attribute that closes the start
 * tag of the element holding each (`data-site="footer-credit">`). The About page is at /about
 * (the web app's paths.about).
 */
export const SITE_MARKUP_PARTS = {
  'footer-credit': footerCreditHtml,
  'about-credit': (settings: SiteSettings) => aboutCreditHtml(settings, '/about'),
  'social-links': socialLinksHtml,
} as const satisfies Record<string, (settings: SiteSettings) => string>;

export type SiteMarkupPart = keyof typeof SITE_MARKUP_PARTS;

/**
 * A built page with the server's settings: the meta element at the end of <head>, and each
 * settings-made part that the build rendered with the defaults (an element whose start tag ends
 * in `data-site="<part>">`) made again from `settings`. The app then reads the meta element and
 * renders the same markup, so hydration keeps it.
 */
export function withSiteSettings(html: string, settings: SiteSettings): string {
  if (!html.includes('</head>')) throw new Error('The page has no </head> to put the site settings in.');
  let page = html.replace('</head>', () => `  ${siteSettingsMetaTag(settings)}\n  </head>`);
  for (const [part, render] of Object.entries(SITE_MARKUP_PARTS)) {
    const marker = `data-site="${part}">`;
    // Up to the element's end tag, so only the whole default part is replaced.
    page = page.replaceAll(`${marker}${render(DEFAULT_SITE_SETTINGS)}</`, () => `${marker}${render(settings)}</`);
  }
  return page;
}
