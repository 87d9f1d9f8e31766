import { parseSiteSettings } from './site-settings';

/**
 * Public facts about this Lockit shown by the splash, the footer and the About page. The
 * credit and the social links come from the VITE_LOCKIT_* build settings (site-settings.ts),
 * already checked by the build.
 */
export const site = {
  name: 'Lockit',
  tagline: 'Lock it. Save it. Own it.',
  ...parseSiteSettings(import.meta.env),
};
