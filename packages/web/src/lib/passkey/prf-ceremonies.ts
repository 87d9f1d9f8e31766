import { passkeyPrfInput, toBase64Url } from '@lockit/crypto';
import {
  browserSupportsWebAuthn,
  startAuthentication,
  startRegistration,
  WebAuthnError,
  type AuthenticationExtensionsClientOutputs,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';

/**
 * WebAuthn ceremonies with the PRF extension, on @simplewebauthn/browser v14.
 *
 * The library spreads `optionsJSON.extensions` into navigator.credentials as they are and
 * returns `getClientExtensionResults()` untouched, so the PRF input can go in as bytes and the
 * PRF output comes back as an ArrayBuffer. Its JSON is used for everything else.
 *
 * Security invariant: the PRF output is the secret that opens the vault. It is taken out of the
 * answer here, and the answer that goes to the server carries at most `prf.enabled`, never
 * `prf.results` (an ArrayBuffer serialises to `{}`, but a Uint8Array would serialise its bytes).
 */

/** A ceremony the person cancelled, or that timed out, or that the browser refused. */
export class PasskeyCeremonyError extends Error {
  override readonly name = 'PasskeyCeremonyError';
}

export const NO_WEBAUTHN_MESSAGE = 'This browser cannot use passkeys or security keys.';
const CANCELLED_MESSAGE = 'The passkey request was cancelled or timed out. Please try again.';

export interface CeremonyAnswer {
  /** The JSON for the server, without any PRF output. */
  response: Record<string, unknown>;
  /** The credential id the authenticator itself answered (base64url of rawId). */
  credentialId: string;
  /** 32 bytes, when the authenticator evaluated the PRF; the caller wipes them after use. */
  prfOutput: Uint8Array | undefined;
  /** False when the authenticator said it has no PRF; undefined when it did not say. */
  prfEnabled: boolean | undefined;
}

/** navigator.credentials.create(), asking for PRF (`withPrf`) as the passkey's unlock. */
export async function createCredential(options: Record<string, unknown>, withPrf: boolean): Promise<CeremonyAnswer> {
  const optionsJSON = options as unknown as PublicKeyCredentialCreationOptionsJSON;
  if (withPrf) optionsJSON.extensions = { ...optionsJSON.extensions, prf: await prfInputs() };
  const answer = await ceremony(() => startRegistration({ optionsJSON }));
  return split(answer);
}

/** navigator.credentials.get() with the PRF extension (passkey sign-in and unlock). */
export async function getAssertion(options: Record<string, unknown>): Promise<CeremonyAnswer> {
  const optionsJSON = options as unknown as PublicKeyCredentialRequestOptionsJSON;
  optionsJSON.extensions = { ...optionsJSON.extensions, prf: await prfInputs() };
  const answer = await ceremony(() => startAuthentication({ optionsJSON }));
  return split(answer);
}

/**
 * The PRF output of a credential just created, for authenticators that enable PRF at create
 * but evaluate it only at get. The challenge is local and random: this assertion is never sent,
 * it only makes the authenticator evaluate the PRF. Undefined when it still gives no output.
 */
export async function evaluatePrf(credentialId: string, rpId: string | undefined): Promise<Uint8Array | undefined> {
  const optionsJSON: PublicKeyCredentialRequestOptionsJSON = {
    challenge: toBase64Url(globalThis.crypto.getRandomValues(new Uint8Array(32))),
    allowCredentials: [{ id: credentialId, type: 'public-key' }],
    userVerification: 'required',
    timeout: 120_000,
    ...(rpId ? { rpId } : {}),
    extensions: { prf: await prfInputs() },
  };
  const answer = await ceremony(() => startAuthentication({ optionsJSON }));
  const { prfOutput, credentialId: answered } = split(answer);
  if (answered !== credentialId) {
    prfOutput?.fill(0);
    return undefined;
  }
  return prfOutput;
}

/** The library passes these bytes to the browser as they are (its types want BufferSource too). */
async function prfInputs() {
  return { eval: { first: await passkeyPrfInput() } };
}

async function ceremony<T>(run: () => Promise<T>): Promise<T> {
  if (!browserSupportsWebAuthn()) throw new PasskeyCeremonyError(NO_WEBAUTHN_MESSAGE);
  try {
    return await run();
  } catch (error) {
    if (error instanceof WebAuthnError || (error as { name?: unknown } | null)?.name === 'NotAllowedError') {
      throw new PasskeyCeremonyError(CANCELLED_MESSAGE);
    }
    throw error;
  }
}

interface LibraryAnswer {
  rawId: string;
  clientExtensionResults: AuthenticationExtensionsClientOutputs;
}

function split<T extends LibraryAnswer>(answer: T): CeremonyAnswer {
  const { prf, ...otherResults } = answer.clientExtensionResults as {
    prf?: { enabled?: unknown; results?: { first?: unknown } };
  };
  const prfOutput = bytesOf(prf?.results?.first);
  const prfEnabled = typeof prf?.enabled === 'boolean' ? prf.enabled : undefined;
  const clientExtensionResults = {
    ...otherResults,
    ...(prfEnabled !== undefined || prfOutput ? { prf: { enabled: prfEnabled ?? true } } : {}),
  };
  return {
    response: { ...answer, clientExtensionResults } as unknown as Record<string, unknown>,
    credentialId: answer.rawId,
    prfOutput,
    prfEnabled: prfOutput ? true : prfEnabled,
  };
}

/** A copy of an ArrayBuffer or view of exactly 32 bytes; anything else is no PRF output. */
function bytesOf(value: unknown): Uint8Array | undefined {
  let bytes: Uint8Array | undefined;
  // By tag, not instanceof: the buffer may come from another realm (an extension, a test DOM).
  if (Object.prototype.toString.call(value) === '[object ArrayBuffer]') bytes = new Uint8Array((value as ArrayBuffer).slice(0));
  else if (ArrayBuffer.isView(value))
    bytes = new Uint8Array(value.buffer.slice(value.byteOffset, value.byteOffset + value.byteLength));
  return bytes?.length === 32 ? bytes : undefined;
}
