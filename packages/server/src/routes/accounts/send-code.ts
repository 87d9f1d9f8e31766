import { apiPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { routeInput } from '../../http/route-input';
import { foldName } from '../../identity/fold-name';
import { generateCode, hashCode } from '../../identity/verification-code';
import { tooMany } from '../../security/rate-limits';
import { MESSAGES } from '../messages';

/**
 * POST /api/email/send-code. The same answers for every well-formed request, so it does not
 * tell which accounts exist; only a real unverified (username, email) pair gets a new code,
 * which replaces the old one. Any other pair (unknown, verified) meets the same cool-down
 * through a stand-in (rateLimits.decoySend), so a quick second request is refused alike. The mail goes out after the answer; the answer's delivery
 * ticket tells the browser later whether it left (decision 0043), decoy or not alike.
 */
export const sendCodeRoute: RoutePlugin = async (app, { ctx }) => {
  app.post(apiPaths.sendCode, { config: { public: true } }, async (request) => {
    const { body } = routeInput(request, 'send-code');
    const usernameFolded = foldName(body.username);
    const emailFolded = foldName(body.email);
    await ctx.rateLimits.hit('sendCode', request.ip, `${usernameFolded}|${emailFolded}`);

    const pairKey = `${usernameFolded}|${emailFolded}`;
    const user = await ctx.repos.users.findByFoldedUsername(usernameFolded);
    if (user && user.email_folded === emailFolded && user.verified_at === null) {
      const at = ctx.now();
      const previous = await ctx.repos.codes.find(user.id);
      const cooldownLeft = previous ? previous.sent_at + ctx.config.timing.codeResendCooldownMs - at : 0;
      if (cooldownLeft > 0) throw tooMany(cooldownLeft, MESSAGES.codeSentRecently);

      const code = generateCode();
      await ctx.repos.codes.replace({
        user_id: user.id,
        code_hash: hashCode(ctx.config.serverSecret, user.id, code),
        expires_at: at + ctx.config.timing.codeLifetimeMs,
        attempts: 0,
        sent_at: at,
      });
      const mail = { to: user.email, username: user.username, code };
      const delivery = ctx.mailDeliveries.track(() => ctx.mailer.sendVerificationCode(mail));
      ctx.background.run('verification mail', delivery.task);
      return { message: MESSAGES.codeOnItsWay, data: { delivery: delivery.ticket } };
    }
    const cooldownLeft = await ctx.rateLimits.decoySend(pairKey, ctx.config.timing.codeResendCooldownMs);
    if (cooldownLeft > 0) throw tooMany(cooldownLeft, MESSAGES.codeSentRecently);
    // Nothing to send; the ticket still looks like a real send's (mail/mail-deliveries.ts).
    return { message: MESSAGES.codeOnItsWay, data: { delivery: ctx.mailDeliveries.decoy() } };
  });
};
