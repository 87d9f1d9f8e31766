import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';
import type { AddressInfo } from 'node:net';

export interface CaughtMail {
  to: string[];
  subject: string;
  text: string;
}

/**
 * A real SMTP server on a random loopback port that keeps every message it receives, so
 * tests read the verification code from the mail the app really sent.
 */
export async function startSmtpSink() {
  const mails: CaughtMail[] = [];
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          mails.push({
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
          });
          waiters.splice(0).forEach((wake) => wake());
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;

  /** Resolves with the newest code mailed to `address` after `after` mails had arrived. */
  async function waitForCode(address: string, after = 0, timeoutMs = 15_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const mail = mails
        .slice(after)
        .reverse()
        .find((m) => m.to.includes(address.toLowerCase()));
      const code = mail?.text.match(/\b([A-Z0-9]{6})\b/)?.[1];
      if (code) return code;
      if (Date.now() > deadline) throw new Error(`no verification code mailed to ${address}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 250);
      });
    }
  }

  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    waitForCode,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type SmtpSink = Awaited<ReturnType<typeof startSmtpSink>>;
