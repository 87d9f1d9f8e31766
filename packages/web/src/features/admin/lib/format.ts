/** Sizes as the operator reads them: 1.2 KiB, 3.4 MiB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

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
