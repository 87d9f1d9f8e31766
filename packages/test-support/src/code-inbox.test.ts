import { describe, expect, it } from 'vitest';
import { LogCodeInbox } from './code-inbox';

const devMail = (username: string, code: string) =>
  JSON.stringify({ level: 30, devMail: true, to: `${username}@x.test`, username, code, msg: 'DEV MAIL' });

describe('LogCodeInbox', () => {
  it('reads the code of the development mailer line that follows the expectation', async () => {
    const inbox = new LogCodeInbox();
    inbox.onLine(devMail('ada', 'OLD111'));
    const code = inbox.expectCode({ email: 'ada@x.test', username: 'ada' });
    inbox.onLine('{"level":30,"msg":"incoming request"}');
    inbox.onLine(devMail('bob', 'BOB222'));
    inbox.onLine(devMail('ada', 'NEW333'));
    expect(await code()).toBe('NEW333');
  });

  it('waits for a code that has not been logged yet', async () => {
    const inbox = new LogCodeInbox();
    const code = inbox.expectCode({ email: 'cy@x.test', username: 'cy' });
    const answer = code();
    inbox.onLine(devMail('cy', 'CYC444'));
    expect(await answer).toBe('CYC444');
  });
});
