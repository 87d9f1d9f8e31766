/** A path with the `?revision=N` a delete or purge names (the revision it is based on). */
export function withRevision(path: string, revision: number): string {
  return `${path}?revision=${encodeURIComponent(String(revision))}`;
}
