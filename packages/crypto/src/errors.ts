/**
 * Every error this package throws on purpose. Each carries a message a person can read, because
 * the web app shows it as is: no stack traces, no WebCrypto jargon, and never a secret or a
 * value an untrusted server chose (a hostile server must not be able to write our UI text).
 */

/** Why checkKdfParams (or the salt check in deriveMasterKey) refused what the server sent. */
export type KdfRejectionReason = 'malformed' | 'below-floor' | 'above-ceiling' | 'beyond-device' | 'salt' | 'key-rolled-back';

/**
 * Key-derivation settings or salt outside Lockit's policy. 'below-floor' is a downgrade
 * attempt (cheaper offline guessing); 'above-ceiling' would freeze or crash the page;
 * 'beyond-device' is within the policy but more than this device can run.
 */
export class KdfParamsRejectedError extends Error {
  override readonly name: string = 'KdfParamsRejectedError';
  readonly reason: KdfRejectionReason;
  constructor(reason: KdfRejectionReason, message: string) {
    super(message);
    this.reason = reason;
  }
}

/** 'format': not `v1.<iv>.<data>`; 'version': a version this code does not know. */
export type CiphertextFormatReason = 'format' | 'version';

export class CiphertextFormatError extends Error {
  override readonly name = 'CiphertextFormatError';
  readonly reason: CiphertextFormatReason;
  constructor(reason: CiphertextFormatReason, message: string) {
    super(message);
    this.reason = reason;
  }
}

/**
 * Raised by the low-level aesGcmDecrypt when a GCM tag does not verify; the vault-key and
 * field functions turn it into their own error with a message for the person.
 */
export class AuthenticationFailedError extends Error {
  override readonly name = 'AuthenticationFailedError';
  constructor() {
    super('The data failed its integrity check and was not decrypted.');
  }
}

export type DecryptionFailureReason = CiphertextFormatReason | 'authentication';

/**
 * The protected vault key could not be unwrapped: wrong master password, or the server changed
 * the protected key, the KDF params or the salt. Nothing is returned in that case.
 */
export class VaultKeyRejectedError extends Error {
  override readonly name = 'VaultKeyRejectedError';
  readonly reason: DecryptionFailureReason;
  constructor(reason: DecryptionFailureReason, message: string) {
    super(message);
    this.reason = reason;
  }
}

/**
 * An entry field failed to decrypt. The caller must show that it failed, never a fallback
 * value: 'authentication' covers a wrong key, a text moved to another entry or field, and
 * any flipped bit or truncation.
 */
export class FieldDecryptionError extends Error {
  override readonly name = 'FieldDecryptionError';
  readonly reason: DecryptionFailureReason;
  constructor(reason: DecryptionFailureReason, message: string) {
    super(message);
    this.reason = reason;
  }
}

/**
 * The server answered a key generation lower than one this browser has already seen for the
 * account: an older salt and wrapped vault key replayed after a password change. A refusal of
 * the server's key settings like the others (reason 'key-rolled-back'), so every screen that
 * shows those shows this one too, before anything is derived.
 */
export class KeyGenerationRolledBackError extends KdfParamsRejectedError {
  override readonly name = 'KeyGenerationRolledBackError';
  constructor(
    readonly answered: number,
    readonly seen: number,
  ) {
    super(
      'key-rolled-back',
      `The server answered an older key (generation ${answered}) than this browser has already seen for this account (generation ${seen}): it may be replaying the key from before a password change. Sign-in was stopped to protect your password.`,
    );
  }
}

/**
 * The server answered a key epoch lower than one this browser has already seen for the account:
 * a wrap (the master password's or a passkey's) of a vault key that a key rotation replaced,
 * served again. A refusal of the server's key settings like the others (reason
 * 'key-rolled-back'), so every screen that shows those shows this one too, and nothing is
 * unwrapped: the vault stays locked rather than open under a key the person retired.
 */
export class KeyEpochRolledBackError extends KdfParamsRejectedError {
  override readonly name = 'KeyEpochRolledBackError';
  constructor(
    readonly answered: number,
    readonly seen: number,
  ) {
    super(
      'key-rolled-back',
      `The server answered a vault key from before a key rotation (key epoch ${answered}), but this browser has already used the key that replaced it (key epoch ${seen}). Your vault stays locked: the server may be replaying a key you rotated away.`,
    );
  }
}
