import { z } from 'zod';
import { SIGNUP_MODES } from './paths';

/**
 * GET /api/config (public): the server settings a browser needs before it acts, none of them
 * secret. `breachCheckUrl` is the base of the Pwned Passwords range API the breach check may
 * query (`{base}/range/{5 hex}`), or null when the operator turned it off. The browser treats
 * the answer as untrusted: only an http(s) URL without query or credentials is used.
 * `signupMode` and `allowedEmailDomains` say who may sign up: the web app hides every Sign Up
 * link unless the mode is open, and checks an address's domain before it sends the form.
 */
export const publicConfigResponseSchema = z.object({
  message: z.string(),
  data: z.object({
    breachCheckUrl: z
      .url({ protocol: /^https?$/, message: 'must be an http(s) URL' })
      .refine((value) => {
        const url = new URL(value);
        return url.search === '' && url.hash === '' && url.username === '' && url.password === '';
      }, 'must have no query, fragment or credentials')
      .nullable(),
    /** Who may sign up (decision 0044); a server older than the setting is open. */
    signupMode: z.enum(SIGNUP_MODES).default('open'),
    /** E-mail domains sign-up accepts, lower case; empty: any. */
    allowedEmailDomains: z.array(z.string()).default([]),
    /** Days "remember this browser" skips the second factor; 0: off. */
    rememberBrowserDays: z.number().int().nonnegative().default(30),
    /**
     * Days an entry stays in Trash (TRASH_RETENTION_DAYS). A browser purges a vault with an
     * integrity state itself, after the longer of this and TRASH_RETENTION_FLOOR_DAYS
     * (decision 0061); a server older than the setting keeps 30.
     */
    trashRetentionDays: z.number().int().positive().default(30),
    /** Whether the operator allows share links (SHARE_LINKS); a server older than the setting has none. */
    shareLinks: z.boolean().default(false),
  }),
});
export type PublicConfig = z.infer<typeof publicConfigResponseSchema>['data'];
