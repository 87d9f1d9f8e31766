import { describe, expect, it } from 'vitest';
import { createLogPrettifier } from './pretty-log';

const prettify = createLogPrettifier(false);
const line = (record: Record<string, unknown>) =>
  JSON.stringify({ level: 30, time: Date.UTC(2025, 0, 1, 12), pid: 7, hostname: 'box', ...record });

describe('pretty log', () => {
  it('boxes a development mail so the code stands out, without repeating its fields', () => {
    const text = prettify(
      line({
        devMail: true,
        to: 'ada@example.com',
        username: 'ada',
        code: 'K7M2QX',
        msg: 'DEV MAIL (SMTP_URL is not set): verification code for ada is K7M2QX',
      }),
    );
    const rows = text.trimEnd().split('\n');
    expect(rows[0]).toMatch(/INFO.*DEV MAIL \(SMTP_URL is not set\): verification code for ada is K7M2QX$/);
    expect(rows.slice(1)).toEqual([
      '┌────────────────────────────────────────┐',
      '│  VERIFICATION CODE for ada: K7M2QX     │',
      '│  (would be mailed to ada@example.com)  │',
      '└────────────────────────────────────────┘',
    ]);
    expect(text).not.toMatch(/devMail|pid|hostname/);
  });

  it('prints a request on one line with its id, method, URL, status and time', () => {
    const incoming = prettify(
      line({
        reqId: 'req-1',
        req: { method: 'POST', url: '/api/users/login', remoteAddress: '127.0.0.1' },
        msg: 'incoming request',
      }),
    );
    const completed = prettify(
      line({ reqId: 'req-1', res: { statusCode: 401 }, responseTime: 12.345, msg: 'request completed' }),
    );
    expect(incoming.trimEnd()).toMatch(/INFO.*\[req-1\] incoming request: POST \/api\/users\/login$/);
    expect(completed.trimEnd()).toMatch(/INFO.*\[req-1\] request completed: 401 in 12\.3 ms$/);
    expect(incoming.split('\n').filter(Boolean)).toHaveLength(1);
  });

  it('shows the address to open on its own line and an error with its stack', () => {
    expect(
      prettify(line({ browserUrl: 'http://localhost:3000', msg: 'Lockit is ready: open http://localhost:3000' })).trimEnd(),
    ).toMatch(/INFO.*: Lockit is ready: open http:\/\/localhost:3000$/);
    const failure = prettify(
      line({ level: 50, err: { type: 'Error', message: 'boom', stack: 'Error: boom\n    at here' }, msg: 'unexpected error' }),
    );
    expect(failure).toMatch(/ERROR.*unexpected error/);
    expect(failure).toContain('Error: boom');
  });

  it('keeps fields it does not show in the message', () => {
    expect(prettify(line({ code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE', msg: 'request refused before routing' }))).toContain(
      'request refused before routing (FST_ERR_CTP_INVALID_MEDIA_TYPE)',
    );
    expect(prettify(line({ schema: 'lockit', msg: 'migrated' }))).toMatch(/schema: "lockit"/);
  });
});
