export {
  rotateVaultKey,
  RotationOutcomeUnknownError,
  RotationStoppedError,
  type RotatingVault,
  type RotationCommitted,
  type RotationDone,
  type RotationInput,
  type RotationPlatform,
  type RotationProgress,
} from './rotate-vault-key';
export { readVaultForRotation, type RotationSnapshot } from './read-vault';
export { resealUnit, type AttachmentKeyWire, type ResealedUnit, type ResealKeys, type ResealUnit } from './reseal';
export { serveResealJobs, type ResealSliceRequest, type ResealSliceResponse } from './reseal-protocol';
export { RESEAL_WORKERS_FROM, type ResealPool } from './reseal-all';
export { afterRotationNotes, progressText } from './rotation-messages';
export { accountDocumentAadId } from './account-document-reseal';
