/**
 * Where a test reads the verification codes the server sends: the SMTP sink, or the server
 * log when no SMTP_URL is set (the development mailer).
 */
export interface CodeInbox {
  /**
   * Call before asking the server for a code; the function it returns waits for that code (a
   * code sent before the call is never mistaken for it).
   */
  expectCode(account: { email: string; username: string }): () => Promise<string>;
}

/**
 * Codes from the development mailer's JSON log lines (`"devMail":true`, with username and
 * code): pass `onLine` to the server process, started with logLevel `info`.
 */
export class LogCodeInbox implements CodeInbox {
  private readonly codes = new Map<string, string[]>();
  private readonly waiters = new Map<string, (code: string) => void>();

  readonly onLine = (line: string): void => {
    if (!line.includes('"devMail":true')) return;
    const record = JSON.parse(line) as { username?: string; code?: string };
    if (!record.username || !record.code) return;
    const waiter = this.waiters.get(record.username);
    if (waiter) {
      this.waiters.delete(record.username);
      waiter(record.code);
    } else this.codes.set(record.username, [...(this.codes.get(record.username) ?? []), record.code]);
  };

  expectCode({ username }: { email: string; username: string }): () => Promise<string> {
    this.codes.delete(username);
    return () => this.codeFor(username);
  }

  private codeFor(username: string, timeoutMs = 20_000): Promise<string> {
    const known = this.codes.get(username)?.shift();
    if (known) return Promise.resolve(known);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no verification code for ${username} in the server log`)), timeoutMs);
      this.waiters.set(username, (code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
  }
}
