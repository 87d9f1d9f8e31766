/** Path → base64 SHA-256 of every code file of the web app's build (web-app-files.mjs). */
export function webAppFiles(webDist: string): Record<string, string>;
