import type { JobWork } from '@lockit/client-core';
import { deriveMasterKey, KdfParamsRejectedError, type KdfParams, type KdfRejectionReason } from '@lockit/crypto';

/** The one message the page sends to the KDF worker. */
export interface KdfRequest {
  password: string;
  salt: string;
  params: KdfParams;
  /** Accept params down to the old floor (the caller's policy allowed them: account-key-policy.ts). */
  legacyFloor?: boolean | undefined;
}

/** The worker's answer. Errors cross the boundary as plain data and are rebuilt on the page. */
export type KdfResponse =
  | { ok: true; masterKey: Uint8Array }
  | { ok: false; rejection: { reason: KdfRejectionReason; message: string } }
  | { ok: false; rejection: null };

/**
 * Runs Argon2id for one request. A policy refusal (params or salt) keeps its reason and
 * readable message; any other failure is reported without details, so nothing about the
 * password can leak through an error text.
 */
export async function runKdfRequest(request: KdfRequest): Promise<KdfResponse> {
  try {
    const masterKey = await deriveMasterKey(request.password, request.salt, request.params, {
      legacyFloor: request.legacyFloor === true,
    });
    return { ok: true, masterKey };
  } catch (error) {
    if (error instanceof KdfParamsRejectedError) {
      return { ok: false, rejection: { reason: error.reason, message: error.message } };
    }
    return { ok: false, rejection: null };
  }
}

/** The KDF worker's job: the answer, with the key bytes handed over (transferred, not copied). */
export async function kdfJob(request: KdfRequest): Promise<JobWork<KdfResponse>> {
  const answer = await runKdfRequest(request);
  return { answer, transfer: answer.ok ? [answer.masterKey.buffer as ArrayBuffer] : [] };
}
