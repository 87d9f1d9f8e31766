import { describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { apiPaths } from '@lockit/contract';
import { MAX_CODE_ATTEMPTS } from '../src/config/app-config';
import { SIGN_UP_ATTEMPT_SUBJECT } from '../src/mail/sign-up-attempt-mail-content';
import { createBody, newAccount, requestCode, signUpAndVerify, uniqueName, type TestAccount } from './helpers/accounts';
import { MESSAGES } from '../src/routes/messages';
import { useTestApp } from './helpers/test-app';

const h = useTestApp();

/** What a prober can compare: the status, the body's keys, the message and the data's keys. */
function shape(response: LightMyRequestResponse) {
  const body = response.json() as { message: string; data?: Record<string, unknown> };
  return {
    status: response.statusCode,
    keys: Object.keys(body).sort(),
    message: body.message,
    dataKeys: body.data ? Object.keys(body.data).sort() : undefined,
  };
}

/** One account in each state a prober might find behind a (name, e-mail) pair. */
async function accountsInEveryState() {
  const verified = await newAccount();
  await signUpAndVerify(h, h.client(), verified);
  const pending = await newAccount();
  expect((await h.client().post(apiPaths.createUser, createBody(pending))).statusCode).toBe(201);
  const unknown = await newAccount();
  return { unknown, pending, verified };
}

const pair = (account: Pick<TestAccount, 'username' | 'email'>) => ({ username: account.username, email: account.email });

describe('sign-up tells nothing about taken e-mail addresses', () => {
  it('answers a taken address (verified or pending) exactly as a new one, and mails its owner', async () => {
    const { unknown, pending, verified } = await accountsInEveryState();
    const fresh = await h.client().post(apiPaths.createUser, createBody(unknown));
    const answers = [fresh];
    for (const owner of [verified, pending]) {
      const prober = await newAccount({ username: uniqueName('prober'), email: owner.email });
      const response = await h.client().post(apiPaths.createUser, createBody(prober));
      expect(response.json().data).toEqual({ username: prober.username, email: owner.email });
      answers.push(response);
    }
    for (const answer of answers) expect(shape(answer)).toEqual(shape(fresh));
    expect(fresh.statusCode).toBe(201);

    for (const owner of [verified, pending]) {
      const mail = await h.sink.waitForMail(owner.email, owner === verified ? 2 : 1);
      expect(mail.subject).toBe(SIGN_UP_ATTEMPT_SUBJECT);
      expect(mail.text).toContain('nothing');
      expect(mail.text).toContain('was changed');
      expect(mail.text).not.toMatch(/https?:\/\//);
    }
    // The new address's owner got no such mail: the sign-up was theirs.
    expect(h.sink.mailsTo(unknown.email)).toHaveLength(0);
  });

  it('takes about as long for a taken address as for a new one (the Argon2id work is done either way)', async () => {
    const { verified } = await accountsInEveryState();
    const timed = async (email?: string) => {
      const body = createBody(await newAccount(email ? { email } : {}));
      const started = performance.now();
      expect((await h.client().post(apiPaths.createUser, body)).statusCode).toBe(201);
      return performance.now() - started;
    };
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const fresh: number[] = [];
    const taken: number[] = [];
    for (let i = 0; i < 5; i++) {
      fresh.push(await timed());
      taken.push(await timed(verified.email));
    }
    // Without the hash a taken address answers in a few milliseconds, a tenth of a new one's time.
    expect(median(taken)).toBeGreaterThan(median(fresh) * 0.4);
    // Ten sign-ups, each with a client-side and a server-side Argon2id: on 2 busy cores 20 s is not enough.
  }, 90_000);

  it('still answers 409 for a taken user name: a name must be visible to be chosen', async () => {
    const { verified } = await accountsInEveryState();
    const response = await h.client().post(apiPaths.createUser, createBody(await newAccount({ username: verified.username })));
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ message: 'That username is already taken.' });
  });
});

describe('send-code answers alike for unknown, verified and pending accounts', () => {
  it('gives the same answer, then the same cool-down refusal', async () => {
    const states = await accountsInEveryState();
    const first = [];
    const second = [];
    for (const account of Object.values(states)) first.push(await h.client().post(apiPaths.sendCode, pair(account)));
    for (const account of Object.values(states)) second.push(await h.client().post(apiPaths.sendCode, pair(account)));
    for (const answer of first) expect(shape(answer)).toEqual(shape(first[0]!));
    expect(first[0]!.statusCode).toBe(200);
    for (const answer of second) {
      expect(shape(answer)).toEqual(shape(second[0]!));
      expect(answer.headers['retry-after']).toBeDefined();
    }
    expect(second[0]!.statusCode).toBe(429);
    // Only the real pending account was mailed a code.
    await h.sink.waitForCode(states.pending.email);
    expect(h.sink.mailsTo(states.unknown.email)).toHaveLength(0);
  });
});

describe('verify-code answers alike for unknown, verified and pending accounts', () => {
  it('calls a code wrong for every state, then refuses more tries after the same count', async () => {
    const { unknown, pending, verified } = await accountsInEveryState();
    const code = await requestCode(h, h.client(), pending);
    const wrong = code === 'AAAAAA' ? 'BBBBBB' : 'AAAAAA';
    const runs = [];
    for (const account of [unknown, verified, pending]) {
      const answers = [];
      for (let i = 0; i <= MAX_CODE_ATTEMPTS; i++) {
        answers.push(shape(await h.client().post(apiPaths.verifyCode, { ...pair(account), code: wrong })));
      }
      runs.push(answers);
    }
    expect(runs[0]![0]).toEqual({ status: 400, keys: ['message'], message: MESSAGES.codeInvalid, dataKeys: undefined });
    expect(runs[0]![MAX_CODE_ATTEMPTS]!.status).toBe(400);
    expect(runs[0]![MAX_CODE_ATTEMPTS]!.message).toBe(MESSAGES.tooManyWrongCodes);
    expect(runs[1]).toEqual(runs[0]);
    expect(runs[2]).toEqual(runs[0]);
  });

  it('gives a new code of an unknown pair its tries afresh, as a real new code gets', async () => {
    const unknown = await newAccount();
    for (let i = 0; i < MAX_CODE_ATTEMPTS; i++) await h.client().post(apiPaths.verifyCode, { ...pair(unknown), code: 'AAAAAA' });
    const spent = await h.client().post(apiPaths.verifyCode, { ...pair(unknown), code: 'AAAAAA' });
    expect(spent.json().message).toBe(MESSAGES.tooManyWrongCodes);
    expect((await h.client().post(apiPaths.sendCode, pair(unknown))).statusCode).toBe(200);
    const again = await h.client().post(apiPaths.verifyCode, { ...pair(unknown), code: 'AAAAAA' });
    expect(again.json()).toEqual({ message: MESSAGES.codeInvalid });
  });
});
