import { sameAccountName } from '../device-memory/account-ref';

/**
 * The server answered a sign-in for another account than the one the person typed (another
 * script's look-alike letters, another name): nothing of that answer is used.
 */
export class AnsweredAccountMismatchError extends Error {
  override readonly name = 'AnsweredAccountMismatchError';
  constructor() {
    super(
      'The server answered for a different account than the one you typed. Lockit stopped the sign-in: the server may be trying to hide what this browser remembers of your vault.',
    );
  }
}

/**
 * Security invariant: a sign-in answer must name the account the person typed, the same after
 * the server's own folding (NFKC, lower case). Anything else is refused before the answer's key
 * is unwrapped or remembered.
 */
export function checkAnsweredAccount(typed: string, answered: string): void {
  if (!sameAccountName(typed, answered)) throw new AnsweredAccountMismatchError();
}
