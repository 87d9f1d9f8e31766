/**
 * Milliseconds since this document's first contentful paint; 0 before it, or where the
 * browser reports no paint timing (jsdom). A prerendered landing page paints from its HTML
 * before the app runs, so a timing the spec counts from what a person sees starts there.
 */
export function sinceFirstPaint(): number {
  if (typeof performance === 'undefined' || typeof performance.getEntriesByName !== 'function') return 0;
  const paint = performance.getEntriesByName('first-contentful-paint')[0];
  return paint === undefined ? 0 : Math.max(0, performance.now() - paint.startTime);
}
