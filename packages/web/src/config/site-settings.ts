/**
 * Who made this Lockit and where to find them: the footer's credit line and social links, and
 * the About page's credit. Set at build time by whoever deploys it (docs/configuration.md);
 * vite.config.ts parses them before building, so a malformed value fails the build, never a
 * page. It imports nothing: the Vite config (Node) loads it too.
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
  VITE_LOCKIT_AUTHOR_NAME?: string | undefined;
  VITE_LOCKIT_AUTHOR_URL?: string | undefined;
  VITE_LOCKIT_SOCIAL_LINKS?: string | undefined;
}

export const MAX_SOCIAL_LINKS = 5;

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

/** Reads the VITE_LOCKIT_* variables; unset or empty ones keep their default. Throws SiteSettingsError. */
export function parseSiteSettings(env: SiteEnv): SiteSettings {
  const name = env.VITE_LOCKIT_AUTHOR_NAME?.trim() ?? '';
  const url = env.VITE_LOCKIT_AUTHOR_URL?.trim() ?? '';
  if ((name === '') !== (url === '')) {
    throw new SiteSettingsError(
      'VITE_LOCKIT_AUTHOR_NAME and VITE_LOCKIT_AUTHOR_URL go together (a credit names an author and links to their profile): set both or neither.',
    );
  }
  const author = name ? { label: name, href: checkedHref('VITE_LOCKIT_AUTHOR_URL', url) } : DEFAULT_SITE_SETTINGS.author;
  const links = env.VITE_LOCKIT_SOCIAL_LINKS?.trim() ?? '';
  return { author, social: links ? parseSocialLinks(links) : DEFAULT_SITE_SETTINGS.social };
}

/** `Label=URL` pairs separated by commas, e.g. `GitHub=https://github.com/ada,Mastodon=https://…`. */
function parseSocialLinks(text: string): SiteLink[] {
  const links = text.split(',').map((pair) => {
    const at = pair.indexOf('=');
    const label = pair.slice(0, at).trim();
    if (at < 0 || label === '') {
      throw new SiteSettingsError(
        `VITE_LOCKIT_SOCIAL_LINKS: "${pair.trim()}" is not Label=URL (pairs are separated by commas, e.g. GitHub=https://github.com/you).`,
      );
    }
    return { label, href: checkedHref(`VITE_LOCKIT_SOCIAL_LINKS (${label})`, pair.slice(at + 1).trim()) };
  });
  if (links.length > MAX_SOCIAL_LINKS) {
    throw new SiteSettingsError(`VITE_LOCKIT_SOCIAL_LINKS: at most ${MAX_SOCIAL_LINKS} links, got ${links.length}.`);
  }
  return links;
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
