/**
 * The rotation id of a path. Any text is looked up as it is (ids are server-made UUIDs, lower
 * case): one that names no rotation of the caller's is a 404 like an expired one.
 */
export function rotationIdFromParams(params: unknown): string {
  const id = (params as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' ? id.toLowerCase() : '';
}
