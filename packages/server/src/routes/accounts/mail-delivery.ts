import { apiPaths, DELIVERY_TICKET_PATTERN } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { HttpError } from '../../http/http-error';
import { MESSAGES } from '../messages';

/**
 * GET /api/email/delivery/:ticket. Public, like send-code: whether the verification mail of a
 * send-code answer went out (pending, sent, failed). A decoy ticket (no mail was due) answers
 * like a real one, so this tells nothing about accounts (see mail/mail-deliveries.ts).
 */
export const mailDeliveryRoute: RoutePlugin = async (app, { ctx }) => {
  app.get<{ Params: { ticket: string } }>(
    `${apiPaths.mailDelivery('')}:ticket`,
    { config: { public: true } },
    async (request, reply) => {
      const { ticket } = request.params;
      const status = DELIVERY_TICKET_PATTERN.test(ticket) ? ctx.mailDeliveries.status(ticket) : undefined;
      if (!status) throw new HttpError(404, MESSAGES.deliveryUnknown);
      // A poll: never cached, the next answer may differ.
      reply.header('cache-control', 'no-store');
      return { message: MESSAGES.ok, data: { status } };
    },
  );
};
