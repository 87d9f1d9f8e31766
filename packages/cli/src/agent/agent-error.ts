import type { ErrorCode } from '../shared/exit-codes.js';

/** A refusal the thin client prints as it is, exiting with the code named. */
export class AgentError extends Error {
  override readonly name = 'AgentError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}
