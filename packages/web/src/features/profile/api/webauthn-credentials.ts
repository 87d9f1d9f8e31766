import {
  apiPaths,
  messageResponseSchema,
  webauthnRegisterOptionsResponseSchema,
  webauthnRegisterResponseSchema,
  type WebauthnCredential,
} from '@lockit/contract';
import { apiRequest } from '@/lib/api-client';

/** POST /api/user/webauthn/register-options: `password` is the authKey, never the master password. */
export async function getRegistrationOptions(body: { password: string; passkey: boolean }) {
  return (
    await apiRequest(apiPaths.webauthnRegisterOptions, {
      method: 'POST',
      body,
      schema: webauthnRegisterOptionsResponseSchema,
      protectedCall: true,
    })
  ).data;
}

/** POST /api/user/webauthn/register: the authenticator's answer, without any PRF output. */
export async function registerCredential(body: {
  challengeId: string;
  name: string;
  response: Record<string, unknown>;
}): Promise<{ credential: WebauthnCredential; recoveryCodes?: string[] | undefined }> {
  return (
    await apiRequest(apiPaths.webauthnRegister, {
      method: 'POST',
      body,
      schema: webauthnRegisterResponseSchema,
      protectedCall: true,
    })
  ).data;
}

/** PUT /api/user/webauthn/{id}/unlock: the vault key wrapped under the passkey's PRF output. */
export async function putUnlockKey(
  id: string,
  body: { unlockKey: string; unlockSalt: string; keyEpoch: number },
): Promise<string> {
  return (
    await apiRequest(apiPaths.webauthnUnlockKey(id), { method: 'PUT', body, schema: messageResponseSchema, protectedCall: true })
  ).message;
}

/** PATCH /api/user/webauthn/{id}: renames it. */
export async function renameCredential(id: string, name: string): Promise<string> {
  return (
    await apiRequest(apiPaths.webauthnCredential(id), {
      method: 'PATCH',
      body: { name },
      schema: messageResponseSchema,
      protectedCall: true,
    })
  ).message;
}

/** POST /api/user/webauthn/{id}/remove: with the authKey; the server drops its unlock key too. */
export async function removeCredential(id: string, password: string): Promise<string> {
  return (
    await apiRequest(apiPaths.webauthnRemove(id), {
      method: 'POST',
      body: { password },
      schema: messageResponseSchema,
      protectedCall: true,
    })
  ).message;
}
