import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import type { CodeInbox } from './code-inbox';

export interface CaughtMail {
  /** Envelope recipients, lower case. */
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
}

/** The code of a Lockit verification mail's text. */
const CODE_IN_MAIL = /verification code is: ([A-Z0-9]{6})/;

/**
 * A real SMTP server on a random loopback port that keeps every mail it receives, so tests
 * read what the production nodemailer path really sent.
 */
export async function startSmtpSink() {
  const mails: CaughtMail[] = [];
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          mails.push({
            to: session.envelope.rcptTo.map((recipient) => recipient.address.toLowerCase()),
            from: parsed.from?.text ?? '',
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
          });
          for (const wake of waiters.splice(0)) wake();
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;

  const mailsTo = (address: string) => mails.filter((mail) => mail.to.includes(address.toLowerCase()));

  /** Waits for the n-th mail (1-based) to `address`, counting from the start of the sink. */
  async function waitForMail(address: string, nth = 1, timeoutMs = 15_000): Promise<CaughtMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const matching = mailsTo(address);
      if (matching.length >= nth) return matching[nth - 1]!;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`No mail #${nth} to ${address} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** The code in the n-th mail (1-based) to `address`. */
  async function waitForCode(address: string, nth = 1): Promise<string> {
    const mail = await waitForMail(address, nth);
    const match = CODE_IN_MAIL.exec(mail.text);
    if (!match) throw new Error(`No verification code in the mail to ${address}: ${mail.text}`);
    return match[1]!;
  }

  const inbox: CodeInbox = {
    expectCode({ email }) {
      const nth = mailsTo(email).length + 1;
      return () => waitForCode(email, nth);
    },
  };

  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    mailsTo,
    waitForMail,
    waitForCode,
    /** Codes as the sign-up helpers read them. */
    inbox,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type SmtpSink = Awaited<ReturnType<typeof startSmtpSink>>;
