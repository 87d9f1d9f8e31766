/**
 * Whether a GET's If-None-Match names `etag` (RFC 9110, 13.1.2): a list of tags or `*`,
 * compared weakly, so `W/"x"` matches `"x"`. Then the answer is 304 with no body.
 */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => {
    const trimmed = tag.trim();
    return (trimmed.startsWith('W/') ? trimmed.slice(2) : trimmed) === etag;
  });
}
