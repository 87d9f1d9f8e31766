import {
  checkKdfParams,
  deriveAccountKeys,
  deriveKeysFromPassword,
  deriveMasterKey,
  KdfParamsRejectedError,
  type AccountKeys,
  type KdfCheckOptions,
  type KdfParams,
} from '@lockit/crypto';
import { inWorkersOrHere, WorkerPool } from '@lockit/client-core';
import type { KdfRequest, KdfResponse } from './kdf-protocol';
import { asWorkerPort } from './page-worker';

/** Thrown when the worker failed for a reason other than a policy refusal. */
export class KeyDerivationError extends Error {
  override readonly name = 'KeyDerivationError';
  constructor() {
    super('Lockit could not derive your keys in this browser.');
  }
}

/**
 * masterKey = Argon2id(password, salt, params), then authKey and wrapKey by HKDF.
 *
 * In a browser the Argon2id step runs in a dedicated worker (the page stays responsive);
 * where Worker does not exist (tests, very old browsers) or the worker cannot start, it runs
 * here. Either way the params are checked against KDF_LIMITS before any work starts, and the
 * master key bytes are wiped once the two keys are derived.
 *
 * Throws KdfParamsRejectedError for params or salt outside policy (the message is readable).
 * `options.legacyFloor` accepts params down to the old floor: only for settings that
 * checkServerKeySettings allowed for this browser's account.
 */
export async function deriveKeys(
  password: string,
  salt: string,
  params: KdfParams,
  options: KdfCheckOptions = {},
): Promise<AccountKeys> {
  const checked = checkKdfParams(params, options);
  return inWorkersOrHere(
    typeof Worker !== 'undefined',
    async () => {
      const masterKey = await deriveInWorker({ password, salt, params: checked, legacyFloor: options.legacyFloor });
      try {
        return await deriveAccountKeys(masterKey);
      } finally {
        masterKey.fill(0);
      }
    },
    () => deriveKeysFromPassword(password, salt, checked, options),
  );
}

/**
 * Argon2id alone (32 bytes, no HKDF), in the same worker when it can start: for keys that are
 * not the account's, such as an encrypted backup's. Params are checked against KDF_LIMITS'
 * ceiling and the old floor (LEGACY_KDF_FLOOR), as backups are (transfer's kdfPolicyProblem):
 * the raised floor guards the account's derivation against a hostile server's params, and a
 * backup's come from a file the person holds. The caller owns (and wipes) the returned bytes.
 */
export async function deriveMasterKeyBytes(password: string, salt: string, params: KdfParams): Promise<Uint8Array> {
  const options = { legacyFloor: true };
  const checked = checkKdfParams(params, options);
  return inWorkersOrHere(
    typeof Worker !== 'undefined',
    () => deriveInWorker({ password, salt, params: checked, ...options }),
    () => deriveMasterKey(password, salt, checked, options),
  );
}

/**
 * Argon2id in a worker of its own (kdf-worker.ts, through the client core's pool), ended once
 * it answers: the password and the master key leave memory with it. The key bytes come back
 * transferred, not copied.
 */
async function deriveInWorker(request: KdfRequest): Promise<Uint8Array> {
  const pool = new WorkerPool<KdfRequest, KdfResponse>({
    spawn: () => asWorkerPort(new Worker(new URL('./kdf-worker.ts', import.meta.url), { type: 'module', name: 'lockit-kdf' })),
    size: 1,
  });
  let response: KdfResponse;
  try {
    response = await pool.one(request);
  } finally {
    pool.terminate();
  }
  if (response.ok) return response.masterKey;
  if (response.rejection) throw new KdfParamsRejectedError(response.rejection.reason, response.rejection.message);
  throw new KeyDerivationError();
}
