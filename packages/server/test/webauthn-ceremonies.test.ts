import { describe, expect, it } from 'vitest';
import { authenticationOptions, registrationOptions, verifyAssertion, verifyRegistration } from '../src/auth/webauthn/ceremonies';
import type { WebauthnCredentialRow } from '../src/db/repositories/webauthn-repository';
import type { RelyingParty } from '../src/auth/webauthn/relying-party';
import { createSoftwareAuthenticator, type CeremonyContext } from './helpers/software-authenticator';

const rp: RelyingParty = { id: 'localhost', origin: 'http://localhost', name: 'Lockit' };
const here: CeremonyContext = { origin: rp.origin };
const user = { id: '3f2c0a4e-1b7d-4c55-9a0e-2f6a8d1c9b10', username: 'alice', fullname: 'Alice' };

/** Registers a new credential of a fresh software authenticator, as the server stores it. */
async function registered(passkey = true) {
  const authenticator = createSoftwareAuthenticator();
  const options = await registrationOptions(rp, user, [], passkey);
  const { credential, response } = authenticator.register(options, here);
  const verified = await verifyRegistration(rp, response, options.challenge, passkey);
  expect(verified).toBeDefined();
  const row: WebauthnCredentialRow = {
    id: 'c0ffee00-0000-4000-8000-000000000001',
    user_id: user.id,
    credential_id: verified!.credentialId,
    public_key: verified!.publicKey,
    counter: verified!.counter,
    transports: JSON.stringify(verified!.transports ?? []),
    name: 'Key',
    device_type: verified!.deviceType,
    backed_up: 0,
    unlock_key: null,
    unlock_salt: null,
    signs_in: 1,
    created_at: 0,
    last_used_at: null,
  };
  return { authenticator, credential, row };
}

describe('WebAuthn ceremonies against a software authenticator', () => {
  it("verifies a registration and stores the authenticator's credential id and key", async () => {
    const { credential, row } = await registered();
    expect(row.credential_id).toBe(credential.id);
    expect(row.counter).toBe(0);
    expect(JSON.parse(row.transports!)).toEqual(['usb']);
  });

  it('refuses a registration for another challenge, origin or RP ID', async () => {
    const authenticator = createSoftwareAuthenticator();
    const options = await registrationOptions(rp, user, [], false);
    const good = authenticator.register(options, here).response;
    expect(await verifyRegistration(rp, good, 'another-challenge', false)).toBeUndefined();
    const elsewhere = authenticator.register(options, { origin: 'https://evil.example' }).response;
    expect(await verifyRegistration(rp, elsewhere, options.challenge, false)).toBeUndefined();
    const otherRp = authenticator.register(options, { origin: rp.origin, rpId: 'evil.example' }).response;
    expect(await verifyRegistration(rp, otherRp, options.challenge, false)).toBeUndefined();
  });

  it('verifies an assertion and reports the new counter', async () => {
    const { authenticator, credential, row } = await registered();
    const options = await authenticationOptions(rp, [row], 'discouraged');
    expect(options.allowCredentials).toEqual([expect.objectContaining({ id: credential.id })]);
    const response = authenticator.assert(options, here);
    expect(await verifyAssertion(rp, row, response, options.challenge, true)).toEqual({
      counter: 1,
      backedUp: false,
      userVerified: true,
    });
  });

  it('refuses a signature counter that does not move forward', async () => {
    const { authenticator, credential, row } = await registered();
    const options = await authenticationOptions(rp, [row], 'discouraged');
    credential.counter = 4; // the next assertion says 5
    const response = authenticator.assert(options, here);
    expect(await verifyAssertion(rp, { ...row, counter: 5 }, response, options.challenge, false)).toBeUndefined();
    expect(await verifyAssertion(rp, { ...row, counter: 7 }, response, options.challenge, false)).toBeUndefined();
    expect(await verifyAssertion(rp, { ...row, counter: 4 }, response, options.challenge, false)).toBeDefined();
  });

  it('refuses an assertion without user verification when it is required, and with another key', async () => {
    const { authenticator, row } = await registered();
    const options = await authenticationOptions(rp, undefined, 'required');
    expect(options.allowCredentials).toBeUndefined();
    const unverified = authenticator.assert(
      options,
      { ...here, userVerified: false },
      [...authenticator.credentials.values()][0],
    );
    expect(await verifyAssertion(rp, row, unverified, options.challenge, true)).toBeUndefined();
    expect(await verifyAssertion(rp, { ...row, counter: 0 }, unverified, options.challenge, false)).toBeDefined();
    const other = await registered();
    const signedByOther = other.authenticator.assert(options, here, other.credential);
    expect(
      await verifyAssertion(
        rp,
        row,
        { ...signedByOther, id: row.credential_id, rawId: row.credential_id },
        options.challenge,
        false,
      ),
    ).toBeUndefined();
  });
});
