/**
 * Where the API lives. Empty means the app's own origin (the server serves both, or the dev
 * server proxies /api). Set VITE_API_URL at build time for an API hosted elsewhere.
 */
export const apiBaseUrl: string = (import.meta.env.VITE_API_URL ?? '').replace(/\/+$/, '');
