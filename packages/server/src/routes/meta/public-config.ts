import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { MESSAGES } from '../messages';

/**
 * GET /api/config (public): settings a browser needs and anyone may know, today the breach
 * check's range API base URL (null: the operator turned it off), and who may sign up (the
 * mode and the allowed e-mail domains, decision 0044), and how many days "remember this
 * browser" lasts at a second-factor prompt (0: not offered, decision 0049), and how many days
 * an entry stays in Trash (a browser purges a vault with an integrity state itself, never
 * before its own floor, decision 0061). Nothing secret goes here.
 */
export const publicConfigRoute: RoutePlugin = async (app, { ctx }) => {
  const answer = {
    message: MESSAGES.ok,
    data: {
      breachCheckUrl: ctx.config.breachCheckUrl,
      signupMode: ctx.config.signup.mode,
      allowedEmailDomains: ctx.config.signup.allowedEmailDomains,
      rememberBrowserDays: ctx.config.rememberBrowserDays,
      trashRetentionDays: ctx.config.trashRetentionDays,
      shareLinks: ctx.config.shareLinks.enabled,
    },
  };
  app.get(apiPaths.publicConfig, { config: { public: true } }, async () => answer);
};
