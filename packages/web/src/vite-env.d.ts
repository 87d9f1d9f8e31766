/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Origin of the Lockit API, e.g. https://api.example.com. Empty: the app's own origin. */
  readonly VITE_API_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
