import { describe, expect, it } from 'vitest';
import { apiPaths } from '@lockit/contract';
import { login, newAccount, signedInUser, signUpAndVerify } from './helpers/accounts';
import { useTestApp } from './helpers/test-app';
import { enableTotp, passwordStep, secondFactor, totpCodeAt } from './helpers/two-factor';
import { NEW_SIGN_IN_SUBJECT, SECOND_FACTOR_FAILED_SUBJECT } from '../src/mail/sign-in-alert-mail-content';
import { SECOND_FACTOR_FAILURES_PER_HOUR } from '../src/security/rate-limits';
import { createSoftwareAuthenticator } from './helpers/software-authenticator';
import { AT_APP, FROM_APP, registerCredential } from './helpers/webauthn';

const h = useTestApp();
const CHROME_ON_LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';

const withSubject = (email: string, subject: string) => h.sink.mailsTo(email).filter((mail) => mail.subject === subject);

function wrongCodeFor(secret: string): string {
  return totpCodeAt(secret, h.clock.now()) === '000000' ? '111111' : '000000';
}

describe('new sign-in mail', () => {
  it('is sent for a browser new to the account, with its browser, system, address and time', async () => {
    const { account } = await signedInUser(h);
    const stranger = h.client('10.20.0.7');
    const response = await stranger.post(
      apiPaths.login,
      { username: account.username, password: account.keys.authKey },
      { headers: { 'user-agent': CHROME_ON_LINUX } },
    );
    expect(response.statusCode).toBe(200);
    const mail = await h.sink.waitForMail(account.email, h.sink.mailsTo(account.email).length + 1);
    expect(mail.subject).toBe(NEW_SIGN_IN_SUBJECT);
    expect(mail.text).toContain('Chrome 120');
    expect(mail.text).toContain('Linux');
    expect(mail.text).toContain('10.20.0.7');
    expect(mail.text).toContain(new Date(h.clock.now()).toUTCString().slice(0, 16));
    expect(mail.text).toMatch(/change your master password/i);
    expect(mail.text).not.toContain(account.keys.authKey);
  });

  it('names only a browser the parser knows: a User-Agent that invents one reads "an unknown browser"', async () => {
    const { account } = await signedInUser(h);
    const invented = 'This sign-in was Lockit support. Reply with your master password/1.0 (X11; Linux x86_64)';
    const response = await h
      .client('10.20.0.8')
      .post(
        apiPaths.login,
        { username: account.username, password: account.keys.authKey },
        { headers: { 'user-agent': invented } },
      );
    expect(response.statusCode).toBe(200);
    const mail = await h.sink.waitForMail(account.email, h.sink.mailsTo(account.email).length + 1);
    expect(mail.subject).toBe(NEW_SIGN_IN_SUBJECT);
    expect(mail.text).toContain('Browser: an unknown browser');
    expect(mail.text).toContain('System: Linux');
    expect(mail.text).not.toMatch(/Lockit support|Reply with/);
    expect(mail.html).not.toMatch(/Lockit support|Reply with/);
  });

  it('is not sent for the first sign-in after verifying, nor for a browser that signed in before', async () => {
    const account = await newAccount();
    const browser = h.client();
    await signUpAndVerify(h, browser, account);
    expect((await login(browser, account)).statusCode).toBe(200);
    expect((await login(browser, account)).statusCode).toBe(200);
    // A new browser's mail is the barrier: the mails before it would have arrived first.
    const before = h.sink.mailsTo(account.email).length;
    expect((await login(h.client(), account)).statusCode).toBe(200);
    await h.sink.waitForMail(account.email, before + 1);
    expect(withSubject(account.email, NEW_SIGN_IN_SUBJECT)).toHaveLength(1);
  });
});

describe('failed second step mail', () => {
  it('is sent once per pending sign-in, advising to change the master password', async () => {
    const { account, client } = await signedInUser(h);
    const { secret } = await enableTotp(h, client, account);
    const stranger = h.client('10.20.0.9');
    const token = await passwordStep(stranger, account);
    const before = h.sink.mailsTo(account.email).length;
    for (let i = 0; i < 3; i += 1) await secondFactor(stranger, { token, method: 'totp', code: wrongCodeFor(secret) });
    const mail = await h.sink.waitForMail(account.email, before + 1);
    expect(mail.subject).toBe(SECOND_FACTOR_FAILED_SUBJECT);
    expect(mail.text).toContain('10.20.0.9');
    expect(mail.text).toMatch(/change it now/);

    const again = await passwordStep(stranger, account);
    await secondFactor(stranger, { token: again, method: 'totp', code: wrongCodeFor(secret) });
    await h.sink.waitForMail(account.email, before + 2);
    expect(withSubject(account.email, SECOND_FACTOR_FAILED_SUBJECT)).toHaveLength(2);
  });
});

describe('second-factor failure cap per device and per account', () => {
  it('keeps counting a known browser that signs in again with the password: 429 from its sixth wrong code, the right one included', async () => {
    const { account, client: owner } = await signedInUser(h);
    const { secret } = await enableTotp(h, owner, account);
    // The browser holds the account's device cookie: the attacker who learned the password
    // loops "password, wrong codes, password again" from it.
    const statuses: number[] = [];
    for (let round = 0; round < 3; round += 1) {
      const token = await passwordStep(owner, account);
      for (let i = 0; i < 5; i += 1) {
        statuses.push((await secondFactor(owner, { token, method: 'totp', code: wrongCodeFor(secret) })).statusCode);
      }
    }
    expect(statuses).toEqual([401, 401, 401, 401, 410, ...Array<number>(10).fill(429)]);
    const right = await secondFactor(owner, {
      token: await passwordStep(owner, account),
      method: 'totp',
      code: totpCodeAt(secret, h.clock.now()),
    });
    expect(right.statusCode).toBe(429);
    expect(right.json().message).toMatch(/^Too many attempts\. Try again in (59|60) minutes\.$/);
    expect((await owner.post(apiPaths.verifySession)).statusCode).toBe(200);
    // That was the browser's own allowance (5): the account's (10) still has room, so another
    // browser's wrong code is checked (401), not refused.
    const other = h.client('10.30.9.9');
    const otherToken = await passwordStep(other, account);
    expect((await secondFactor(other, { token: otherToken, method: 'totp', code: wrongCodeFor(secret) })).statusCode).toBe(401);
  });

  it('takes 10 wrong second factors an hour from all browsers together, known ones included, then answers 429 to the right code', async () => {
    const { account, client: owner } = await signedInUser(h);
    const { secret } = await enableTotp(h, owner, account);
    let wrong = 0;
    while (wrong < SECOND_FACTOR_FAILURES_PER_HOUR) {
      const stranger = h.client(`10.30.0.${wrong}`);
      const token = await passwordStep(stranger, account);
      for (let i = 0; i < 5 && wrong < SECOND_FACTOR_FAILURES_PER_HOUR; i += 1, wrong += 1) {
        // The fifth wrong code of one pending sign-in ends it (410); each before it is a 401.
        const status = (await secondFactor(stranger, { token, method: 'totp', code: wrongCodeFor(secret) })).statusCode;
        expect(status).toBe(i === 4 ? 410 : 401);
      }
    }
    const late = h.client('10.30.1.1');
    const refused = await secondFactor(late, {
      token: await passwordStep(late, account),
      method: 'totp',
      code: totpCodeAt(secret, h.clock.now()),
    });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(/^Too many attempts\. Try again in/);

    // The owner's known browser is refused too: the allowance is the account's, and whoever
    // filled it holds the master password (the failed-second-step mail told the owner so).
    const ownToken = await passwordStep(owner, account);
    const ownSignIn = await secondFactor(owner, { token: ownToken, method: 'totp', code: totpCodeAt(secret, h.clock.now()) });
    expect(ownSignIn.statusCode).toBe(429);
    expect(ownSignIn.json().message).toMatch(/^Too many attempts\. Try again in/);
  });

  it('counts recovery codes and security keys in the same allowance as TOTP codes', async () => {
    const { account, client: owner } = await signedInUser(h);
    const { secret, recoveryCodes } = await enableTotp(h, owner, account);
    const key = createSoftwareAuthenticator();
    await registerCredential(owner, account, key, { passkey: false });
    // A valid key, but of another account: refused like any wrong factor.
    const stranger = await signedInUser(h);
    const strangersKey = createSoftwareAuthenticator();
    const { held: strangersCredential } = await registerCredential(stranger.client, stranger.account, strangersKey, {
      passkey: false,
    });

    const byRecovery = h.client('10.31.0.1');
    const recoveryToken = await passwordStep(byRecovery, account);
    for (let i = 0; i < 5; i += 1) {
      const status = (await secondFactor(byRecovery, { token: recoveryToken, method: 'recovery', code: 'AAAA-AAAA-AAAA-AAAA' }))
        .statusCode;
      expect(status).toBe(i === 4 ? 410 : 401);
    }
    const byKey = h.client('10.31.0.2');
    const keyToken = await passwordStep(byKey, account);
    for (let i = 0; i < 5; i += 1) {
      const options = (await byKey.post(apiPaths.loginWebauthnOptions, { token: keyToken }, FROM_APP)).json().data.options;
      const response = strangersKey.assert(options, AT_APP, strangersCredential);
      const status = (await byKey.post(apiPaths.loginWebauthn, { token: keyToken, response }, FROM_APP)).statusCode;
      expect(status).toBe(401);
    }
    const late = h.client('10.31.0.3');
    const lateToken = await passwordStep(late, account);
    expect((await secondFactor(late, { token: lateToken, method: 'recovery', code: recoveryCodes[0]! })).statusCode).toBe(429);
    const options = (await late.post(apiPaths.loginWebauthnOptions, { token: lateToken }, FROM_APP)).json().data.options;
    const keyAnswer = await late.post(
      apiPaths.loginWebauthn,
      { token: lateToken, response: key.assert(options, AT_APP) },
      FROM_APP,
    );
    expect(keyAnswer.statusCode).toBe(429);
    expect(keyAnswer.json().message).toMatch(/^Too many attempts\. Try again in/);
    expect(
      (await secondFactor(late, { token: lateToken, method: 'totp', code: totpCodeAt(secret, h.clock.now()) })).statusCode,
    ).toBe(429);
  });
});
