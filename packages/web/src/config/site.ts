import { siteSettingsFromMeta, SITE_SETTINGS_META } from '@lockit/contract/site-settings';

/**
 * Public facts about this Lockit shown by the splash, the footer and the About page. The
 * credit and the social links are the server's runtime settings (decision 0082), read from the
 * meta element it writes into every page it sends, before the first render; the build's
 * prerendering (no document) and a page without one get the defaults.
 */
export const site = {
  name: 'Lockit',
  tagline: 'Lock it. Save it. Own it.',
  ...siteSettingsFromMeta(
    typeof document === 'undefined'
      ? null
      : document.querySelector(`meta[name="${SITE_SETTINGS_META}"]`)?.getAttribute('content'),
  ),
};
