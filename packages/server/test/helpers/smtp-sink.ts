import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';

export interface CaughtMail {
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * A real SMTP server on a random local port that keeps every mail it receives, so tests
 * exercise the production nodemailer path end to end.
 */
export async function startSmtpSink() {
  const mails: CaughtMail[] = [];
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const toField = Array.isArray(parsed.to) ? parsed.to : parsed.to ? [parsed.to] : [];
          mails.push({
            to: toField.flatMap((group) => group.value.map((address) => (address.address ?? '').toLowerCase())),
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

  /** Waits for the n-th mail (1-based) to `address`, counting from the start of the sink. */
  async function waitForMail(address: string, nth = 1, timeoutMs = 5_000): Promise<CaughtMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const matching = mails.filter((mail) => mail.to.includes(address.toLowerCase()));
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

  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    waitForMail,
    /** The code in the n-th verification mail to `address`. */
    async waitForCode(address: string, nth = 1): Promise<string> {
      const mail = await waitForMail(address, nth);
      const match = /verification code is: ([A-Z0-9]{6})/.exec(mail.text);
      if (!match) throw new Error(`No code in mail to ${address}: ${mail.text}`);
      return match[1]!;
    },
    mailsTo(address: string): CaughtMail[] {
      return mails.filter((mail) => mail.to.includes(address.toLowerCase()));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type SmtpSink = Awaited<ReturnType<typeof startSmtpSink>>;
