import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A WebAuthn authenticator in software, for server tests: real ES256 keys (node:crypto), real
 * clientDataJSON, authenticatorData (rpIdHash, flags, signature counter, attested credential
 * data with a COSE key) and a 'none' attestation object in CBOR, so the server's
 * @simplewebauthn verification runs exactly as it does for a browser's answer.
 */

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

/** What a browser would put in clientDataJSON and which RP ID the authenticator signs for. */
export interface CeremonyContext {
  /** The page's origin, e.g. http://localhost. */
  origin: string;
  /** Defaults to the origin's host name. */
  rpId?: string;
  /** Whether the authenticator verified its user (PIN, biometrics); default true. */
  userVerified?: boolean;
}

export interface SoftwareCredential {
  /** base64url credential id. */
  id: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** The user handle from the creation options (base64url). */
  userHandle: string;
  /** The signature counter the next assertion reports (then incremented). */
  counter: number;
}

interface CreationOptionsLike {
  challenge: string;
  user: { id: string };
}
interface RequestOptionsLike {
  challenge: string;
  allowCredentials?: Array<{ id: string }>;
}

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString('base64url');
const sha256 = (bytes: Uint8Array | Buffer | string) => createHash('sha256').update(bytes).digest();

function clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin: string): Buffer {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }), 'utf8');
}

function counterBytes(counter: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(counter);
  return bytes;
}

/** The credential's public key as COSE_Key (EC2, ES256, P-256). */
function coseKey(publicKey: KeyObject): Uint8Array {
  const jwk = publicKey.export({ format: 'jwk' });
  const cose = new Map<number, number | Uint8Array>([
    [1, 2],
    [3, -7],
    [-1, 1],
    [-2, new Uint8Array(Buffer.from(jwk.x!, 'base64url'))],
    [-3, new Uint8Array(Buffer.from(jwk.y!, 'base64url'))],
  ]);
  return isoCBOR.encode(cose);
}

export function rpIdOf(context: CeremonyContext): string {
  return context.rpId ?? new URL(context.origin).hostname;
}

export function createSoftwareAuthenticator() {
  const credentials = new Map<string, SoftwareCredential>();

  return {
    credentials,

    /** Answers creation options with a new credential (or `reuse`, to register one twice). */
    register(options: CreationOptionsLike, context: CeremonyContext, reuse?: SoftwareCredential) {
      const credential = reuse ?? makeCredential(options.user.id);
      credentials.set(credential.id, credential);
      const flags = FLAG_UP | FLAG_AT | (context.userVerified === false ? 0 : FLAG_UV);
      const credentialId = Buffer.from(credential.id, 'base64url');
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(credentialId.length);
      const authData = Buffer.concat([
        sha256(rpIdOf(context)),
        Buffer.from([flags]),
        counterBytes(0),
        Buffer.alloc(16), // AAGUID: none given with 'none' attestation
        idLength,
        credentialId,
        Buffer.from(coseKey(credential.publicKey)),
      ]);
      const attestationObject = isoCBOR.encode(
        new Map<string, unknown>([
          ['fmt', 'none'],
          ['attStmt', new Map()],
          ['authData', new Uint8Array(authData)],
        ]) as Parameters<typeof isoCBOR.encode>[0],
      );
      return {
        credential,
        response: {
          id: credential.id,
          rawId: credential.id,
          type: 'public-key',
          response: {
            clientDataJSON: b64url(clientData('webauthn.create', options.challenge, context.origin)),
            attestationObject: b64url(attestationObject),
            transports: ['usb'],
          },
          clientExtensionResults: {},
          authenticatorAttachment: 'cross-platform',
        },
      };
    },

    /**
     * Answers request options with `credential` (default: the first allowed one we hold),
     * signing authenticatorData || SHA-256(clientDataJSON), and advancing its counter.
     */
    assert(options: RequestOptionsLike, context: CeremonyContext, credential?: SoftwareCredential) {
      const chosen =
        credential ?? options.allowCredentials?.map((allowed) => credentials.get(allowed.id)).find((held) => held !== undefined);
      if (!chosen) throw new Error('software authenticator: no credential for these options');
      chosen.counter += 1;
      const flags = FLAG_UP | (context.userVerified === false ? 0 : FLAG_UV);
      const authData = Buffer.concat([sha256(rpIdOf(context)), Buffer.from([flags]), counterBytes(chosen.counter)]);
      const clientDataJSON = clientData('webauthn.get', options.challenge, context.origin);
      const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), chosen.privateKey);
      return {
        id: chosen.id,
        rawId: chosen.id,
        type: 'public-key',
        response: {
          clientDataJSON: b64url(clientDataJSON),
          authenticatorData: b64url(authData),
          signature: b64url(signature),
          userHandle: chosen.userHandle,
        },
        clientExtensionResults: {},
        authenticatorAttachment: 'cross-platform',
      };
    },
  };
}

export type SoftwareAuthenticator = ReturnType<typeof createSoftwareAuthenticator>;

function makeCredential(userHandle: string): SoftwareCredential {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { id: b64url(randomBytes(32)), privateKey, publicKey, userHandle, counter: 0 };
}
