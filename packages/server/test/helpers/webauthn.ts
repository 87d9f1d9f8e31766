import { expect } from 'vitest';
import { apiPaths, webauthnRegisterResponseSchema, type WebauthnCredential } from '@lockit/contract';
import type { InjectClient } from './inject-client';
import type { TestAccount } from './accounts';
import type { CeremonyContext, SoftwareAuthenticator, SoftwareCredential } from './software-authenticator';

/** The origin `app.inject` requests are addressed to (its default Host is localhost:80). */
export const APP_ORIGIN = 'http://localhost';
/** A page at the app's own origin, whose authenticator verifies its user. */
export const AT_APP: CeremonyContext = { origin: APP_ORIGIN };
/** What the web app sends with each WebAuthn call: its own Origin. */
export const FROM_APP = { headers: { origin: APP_ORIGIN } };

/** POST register-options as the web app does (Origin header included). */
export function registerOptions(client: InjectClient, account: Pick<TestAccount, 'keys'>, passkey: boolean) {
  return client.post(apiPaths.webauthnRegisterOptions, { password: account.keys.authKey, passkey }, FROM_APP);
}

export interface Registered {
  /** Our id of the stored credential (Profile's). */
  credential: WebauthnCredential;
  /** The authenticator's side of it. */
  held: SoftwareCredential;
  recoveryCodes: string[] | undefined;
}

/** Registers a new credential of `authenticator` for the signed-in `client`, and checks it worked. */
export async function registerCredential(
  client: InjectClient,
  account: Pick<TestAccount, 'keys'>,
  authenticator: SoftwareAuthenticator,
  options: { passkey?: boolean; name?: string } = {},
): Promise<Registered> {
  const begun = await registerOptions(client, account, options.passkey ?? true);
  expect(begun.statusCode).toBe(200);
  const { challengeId, options: creation } = begun.json().data;
  const { credential: held, response } = authenticator.register(creation, AT_APP);
  const finished = await client.post(
    apiPaths.webauthnRegister,
    { challengeId, name: options.name ?? 'My key', response },
    FROM_APP,
  );
  expect(finished.statusCode, finished.body).toBe(200);
  const data = webauthnRegisterResponseSchema.parse(finished.json()).data;
  return { credential: data.credential, held, recoveryCodes: data.recoveryCodes };
}

/** Starts a passkey sign-in from `client` and answers it with `held` in `context`. */
export async function passkeySignIn(
  client: InjectClient,
  authenticator: SoftwareAuthenticator,
  held: SoftwareCredential,
  context: CeremonyContext = AT_APP,
) {
  const begun = await client.post(apiPaths.passkeyOptions, {}, FROM_APP);
  expect(begun.statusCode).toBe(200);
  const { challengeId, options } = begun.json().data;
  const response = authenticator.assert(options, context, held);
  return { challengeId, response, answer: await client.post(apiPaths.passkeySignIn, { challengeId, response }, FROM_APP) };
}
