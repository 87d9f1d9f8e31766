import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { requireSession } from '../../auth/require-session';
import { raiseTwoFactorEpoch } from '../../auth/two-factor/two-factor-changes';
import { TWO_FACTOR_MESSAGES } from './two-factor-messages';

/** POST /api/user/two-factor/forget-browsers: every remembered browser asks for the second step again. */
export const forgetBrowsersRoute: RoutePlugin = async (app, { ctx }) => {
  app.post(apiPaths.forgetBrowsers, async (request) => {
    const { user } = requireSession(request);
    await raiseTwoFactorEpoch(ctx, user.id);
    return { message: TWO_FACTOR_MESSAGES.browsersForgotten };
  });
};
