/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Origin of the Lockit API, e.g. https://api.example.com. Empty: the app's own origin. */
  readonly VITE_API_URL?: string;
  /** The credit line's author and profile link (src/config/site-settings.ts). */
  readonly VITE_LOCKIT_AUTHOR_NAME?: string;
  readonly VITE_LOCKIT_AUTHOR_URL?: string;
  /** The footer's links: `Label=URL` pairs separated by commas. */
  readonly VITE_LOCKIT_SOCIAL_LINKS?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
