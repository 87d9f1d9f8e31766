import { fromBase64Url, toBase64Url } from '@lockit/crypto';
import { onTestFinished } from 'vitest';

/**
 * A stand-in for the browser's WebAuthn (jsdom has none): navigator.credentials.create/get and
 * window.PublicKeyCredential, answering like a platform authenticator. Its PRF output is
 * SHA-256(secret | input), so it is secret per credential and depends on the input the app sends.
 * Installed for one test; removed when the test finishes.
 */
export interface FakeAuthenticatorOptions {
  /** Whether the authenticator has PRF (hmac-secret). Default true. */
  prf?: boolean;
  /** Whether PRF is evaluated at create() already; else only at get(). Default false. */
  prfAtCreate?: boolean;
}

export interface FakeAuthenticator {
  /** The credential ids (base64url) made so far. */
  credentials: string[];
  /** The PRF inputs the app asked for, as base64url. */
  prfInputs: string[];
  /** What this credential's PRF gives for `input`. */
  prfOutput: (credentialId: string, input: Uint8Array) => Promise<Uint8Array>;
  /** Make get() answer with this credential (a passkey already on the device). */
  addCredential: (credentialId: string, userHandle: string) => void;
}

const encoder = new TextEncoder();

export function installFakeAuthenticator(options: FakeAuthenticatorOptions = {}): FakeAuthenticator {
  const hasPrf = options.prf ?? true;
  const secrets = new Map<string, Uint8Array>();
  const handles = new Map<string, string>();
  const state: FakeAuthenticator = {
    credentials: [],
    prfInputs: [],
    prfOutput: async (credentialId, input) => {
      const secret = secrets.get(credentialId) ?? new Uint8Array(32);
      const joined = new Uint8Array([...secret, ...input]);
      return new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', joined));
    },
    addCredential: (credentialId, userHandle) => {
      secrets.set(credentialId, globalThis.crypto.getRandomValues(new Uint8Array(32)));
      handles.set(credentialId, userHandle);
      state.credentials.push(credentialId);
    },
  };

  const prfResults = async (credentialId: string, extensions: unknown, evaluate: boolean) => {
    const first = (extensions as { prf?: { eval?: { first?: Uint8Array } } } | undefined)?.prf?.eval?.first;
    if (!first) return {};
    state.prfInputs.push(toBase64Url(new Uint8Array(first)));
    if (!hasPrf) return { prf: { enabled: false } };
    if (!evaluate) return { prf: { enabled: true } };
    const output = await state.prfOutput(credentialId, new Uint8Array(first));
    return { prf: { enabled: true, results: { first: output.buffer } } };
  };

  const create = async ({ publicKey }: { publicKey: { user: { id: ArrayBuffer }; extensions?: unknown } }) => {
    const rawId = globalThis.crypto.getRandomValues(new Uint8Array(16));
    const id = toBase64Url(rawId);
    state.addCredential(id, toBase64Url(new Uint8Array(publicKey.user.id)));
    const results = await prfResults(id, publicKey.extensions, options.prfAtCreate ?? false);
    return {
      id,
      rawId: rawId.buffer,
      type: 'public-key',
      authenticatorAttachment: 'platform',
      response: {
        attestationObject: encoder.encode('attestation').buffer,
        clientDataJSON: encoder.encode('{"type":"webauthn.create"}').buffer,
        getTransports: () => ['internal'],
      },
      getClientExtensionResults: () => results,
    };
  };

  const get = async ({ publicKey }: { publicKey: { allowCredentials?: { id: ArrayBuffer }[]; extensions?: unknown } }) => {
    const allowed = publicKey.allowCredentials?.map((c) => toBase64Url(new Uint8Array(c.id)));
    const id = allowed?.[0] ?? state.credentials[state.credentials.length - 1];
    if (id === undefined || !secrets.has(id)) throw new DOMException('No credential.', 'NotAllowedError');
    const results = await prfResults(id, publicKey.extensions, true);
    const rawId = new Uint8Array([...fromBase64Url(id)]);
    return {
      id,
      rawId: rawId.buffer,
      type: 'public-key',
      authenticatorAttachment: 'platform',
      response: {
        authenticatorData: encoder.encode('authenticator-data').buffer,
        clientDataJSON: encoder.encode('{"type":"webauthn.get"}').buffer,
        signature: encoder.encode('signature').buffer,
        userHandle: new Uint8Array(fromBase64Url(handles.get(id) ?? '')).buffer,
      },
      getClientExtensionResults: () => results,
    };
  };

  const hadCredentials = Object.getOwnPropertyDescriptor(navigator, 'credentials');
  Object.defineProperty(navigator, 'credentials', { value: { create, get }, configurable: true });
  Object.defineProperty(window, 'PublicKeyCredential', { value: function PublicKeyCredential() {}, configurable: true });
  onTestFinished(() => {
    if (hadCredentials) Object.defineProperty(navigator, 'credentials', hadCredentials);
    else Reflect.deleteProperty(navigator, 'credentials');
    Reflect.deleteProperty(window, 'PublicKeyCredential');
  });
  return state;
}
