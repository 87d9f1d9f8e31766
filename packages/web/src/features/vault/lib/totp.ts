/** TOTP seeds and codes live in the client core, shared with the command line's agent. */
export {
  parseTotpSeed,
  totpCode,
  totpRemainingSeconds,
  totpUri,
  TotpSeedError,
  TOTP_ALGORITHMS,
  type TotpAlgorithm,
  type TotpSeed,
} from '@lockit/client-core';
