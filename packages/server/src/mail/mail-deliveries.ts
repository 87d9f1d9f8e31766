import { randomBytes } from 'node:crypto';

export type DeliveryStatus = 'pending' | 'sent' | 'failed';

/** How long a ticket can be asked about: the code's own lifetime is 10 minutes. */
export const DELIVERY_TICKET_LIFETIME_MS = 15 * 60_000;
/** Tickets kept at most; the oldest go first (a flood of send-codes cannot grow memory). */
const MAX_TICKETS = 20_000;
/** Until real sends have been timed, a decoy stays pending this long. */
const FIRST_SEND_ESTIMATE_MS = 300;

interface Ticket {
  expiresAt: number;
  /** A real send's outcome once known; undefined while it is being sent. */
  outcome?: 'sent' | 'failed';
  /** A decoy settles at this time, as the outcome the mail server gives real sends. */
  decoyAt?: number;
}

/**
 * Delivery tickets for verification mails (decision 0043). The send-code route answers before
 * the mail goes out (decision 0007), so the answer cannot say whether the mail left; instead
 * it carries an opaque ticket the browser asks about (pending, sent, failed) to tell the person
 * when the code could not be sent.
 *
 * Security invariant: the ticket of a request that sends nothing (unknown account, mismatched
 * e-mail, already verified) is a decoy that looks like a real send: pending for about as long
 * as real sends take, then the outcome real sends are having (failed while the mail server is
 * down, sent otherwise). Tickets are random and say nothing themselves.
 *
 * In memory: a ticket is known to the process that issued it (a load balancer without sticky
 * sessions may send the question elsewhere, which answers 404 and the browser shows nothing).
 */
export function createMailDeliveries(now: () => number) {
  const tickets = new Map<string, Ticket>();
  let lastOutcome: 'sent' | 'failed' = 'sent';
  let typicalSendMs = FIRST_SEND_ESTIMATE_MS;

  const issue = (ticket: Ticket): string => {
    const id = randomBytes(16).toString('base64url');
    if (tickets.size >= MAX_TICKETS) tickets.delete(tickets.keys().next().value as string);
    tickets.set(id, ticket);
    return id;
  };

  return {
    /** A real send: the ticket follows it. `task` runs the send and rethrows its failure. */
    track(send: () => Promise<void>): { ticket: string; task: () => Promise<void> } {
      const entry: Ticket = { expiresAt: now() + DELIVERY_TICKET_LIFETIME_MS };
      const ticket = issue(entry);
      const task = async () => {
        const started = now();
        const settle = (outcome: 'sent' | 'failed') => {
          entry.outcome = outcome;
          lastOutcome = outcome;
          // A moving average: decoys keep pace with what real sends take now.
          typicalSendMs = Math.round(typicalSendMs * 0.8 + (now() - started) * 0.2);
        };
        try {
          await send();
          settle('sent');
        } catch (error) {
          settle('failed');
          throw error;
        }
      };
      return { ticket, task };
    },

    /** No mail goes out for this request; its ticket looks like one that does. */
    decoy(): string {
      const at = now();
      return issue({ expiresAt: at + DELIVERY_TICKET_LIFETIME_MS, decoyAt: at + typicalSendMs });
    },

    /** The status of a ticket, or undefined for one unknown here or expired. */
    status(id: string): DeliveryStatus | undefined {
      const entry = tickets.get(id);
      const at = now();
      if (!entry) return undefined;
      if (entry.expiresAt <= at) {
        tickets.delete(id);
        return undefined;
      }
      if (entry.decoyAt !== undefined) {
        if (at < entry.decoyAt) return 'pending';
        entry.outcome ??= lastOutcome;
        delete entry.decoyAt;
      }
      return entry.outcome ?? 'pending';
    },
  };
}

export type MailDeliveries = ReturnType<typeof createMailDeliveries>;
