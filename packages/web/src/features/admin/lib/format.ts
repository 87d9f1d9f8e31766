/** A date and time in the browser's locale, or "never". */
export function formatWhen(iso: string | null): string {
  if (iso === null) return 'never';
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** The server's message of a failed call, or a generic sentence. */
export function failureText(error: unknown): string {
  if (error && typeof error === 'object' && 'serverMessage' in error && typeof error.serverMessage === 'string') {
    return error.serverMessage;
  }
  return 'That did not work: the server could not be reached or gave no answer.';
}
