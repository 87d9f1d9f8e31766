import { SITE_MARKUP_PARTS } from '@lockit/contract/site-settings';
import { site } from '@/config/site';
import { useInAppLinks } from './use-in-app-links';

export function Footer() {
  const year = new Date().getFullYear();
  const inAppLinks = useInAppLinks();
  return (
    // Laid out and painted only near the viewport: below the first screen on most pages, it is
    // work a first paint can skip (contain-intrinsic-size keeps its place meanwhile).
    <footer className="border-t border-slate-800 bg-slate-950 px-4 py-10 text-sm text-slate-400 [content-visibility:auto] [contain-intrinsic-size:auto_240px]">
      <div className="mx-auto flex max-w-6xl flex-col gap-6 md:flex-row md:items-start md:justify-between">
        <div className="max-w-md">
          <p className="text-lg font-bold text-white">{site.name}</p>
          <p className="mt-2">
            Lockit is a personal password vault that encrypts everything in your browser before it is saved. No tracking, no ads,
            no data selling: your passwords stay yours.
          </p>
        </div>
        {/* The server writes this markup into its prerendered pages from the same settings
            (withSiteSettings), so it is set as HTML, the very string, and hydration keeps it. */}
        <ul
          aria-label="Social links"
          className="flex gap-4 [&_a:hover]:text-cyan-300"
          dangerouslySetInnerHTML={{ __html: SITE_MARKUP_PARTS['social-links'](site) }}
          data-site="social-links"
          ref={inAppLinks}
        />
      </div>
      <div className="mx-auto mt-8 flex max-w-6xl flex-col gap-1 border-t border-slate-800 pt-6 md:flex-row md:justify-between">
        {/* The prerendered HTML has the build's year; a page hydrated in a later year shows its own. */}
        <p suppressHydrationWarning>© {year} Lockit</p>
        <p>
          Designed and built by{' '}
          <span
            className="[&_a]:underline [&_a:hover]:text-cyan-300"
            dangerouslySetInnerHTML={{ __html: SITE_MARKUP_PARTS['footer-credit'](site) }}
            data-site="footer-credit"
            ref={inAppLinks}
          />
          .
        </p>
      </div>
    </footer>
  );
}
