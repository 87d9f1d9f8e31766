import { z } from 'zod';
import { MATCH_RULES } from '../shared/url-match';

/**
 * What the extension keeps on disk (`chrome.storage.local`): the server's origin, the name
 * typed at sign-in, whether a session was opened, and the person's preferences. Nothing secret:
 * the session itself is the server's HttpOnly cookies, the key lives in storage.session.
 */
const settingsSchema = z.object({
  server: z.string().nullable().catch(null),
  username: z.string().nullable().catch(null),
  signedIn: z.boolean().catch(false),
  idleMinutes: z.number().int().min(1).max(1440).catch(15),
  matchRule: z.enum(MATCH_RULES).catch('base-domain'),
});

export type Settings = z.infer<typeof settingsSchema>;

const KEY = 'lockit.settings';

export async function readSettings(): Promise<Settings> {
  const stored: unknown = (await chrome.storage.local.get(KEY))[KEY];
  return settingsSchema.parse(typeof stored === 'object' && stored !== null ? stored : {});
}

export async function writeSettings(change: Partial<Settings>): Promise<void> {
  const current = await readSettings();
  await chrome.storage.local.set({ [KEY]: { ...current, ...change } });
}

/**
 * The origin of a server address as typed: https (or http on this machine for a local
 * server), no path, no credentials. Throws a readable error for anything else.
 */
export function serverOrigin(typed: string): string {
  const text = typed.trim();
  const withScheme = /^https?:\/\//i.test(text) ? text : `https://${text}`;
  if (!URL.canParse(withScheme)) throw new Error('Enter the address of your Lockit server, such as https://vault.example.com.');
  const url = new URL(withScheme);
  if (url.username || url.password) throw new Error('The server address cannot hold a user name or password.');
  const local = url.hostname === 'localhost' || url.hostname === '127.0.0.1' || url.hostname === '[::1]';
  if (url.protocol !== 'https:' && !local)
    throw new Error('Lockit talks to its server over HTTPS only (http only on this computer).');
  return url.origin;
}
