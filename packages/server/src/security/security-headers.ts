import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * No inline script or style, no plugins, no framing; WebAssembly allowed for Argon2.
 * `connect-src` is the app's own origin, plus the origin of the breach check's range API
 * when the operator left it on (BREACH_CHECK_URL): browsers query it directly, so only 5
 * hex characters of a hash reach it and this server never sees even those.
 */
export function contentSecurityPolicy(breachCheckUrl: string | null = null): string {
  const connect = breachCheckUrl === null ? "'self'" : `'self' ${new URL(breachCheckUrl).origin}`;
  return [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ${connect}`,
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The policy with the breach check off: what answers refused before routing carry. */
export const CONTENT_SECURITY_POLICY = contentSecurityPolicy();

const PERMISSIONS_POLICY = [
  'camera=()',
  'microphone=()',
  'geolocation=()',
  'payment=()',
  'usb=()',
  'magnetometer=()',
  'gyroscope=()',
  'accelerometer=()',
  'browsing-topics=()',
].join(', ');

const STATIC_HEADERS: Record<string, string> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'permissions-policy': PERMISSIONS_POLICY,
  'cross-origin-opener-policy': 'same-origin',
  // Checked only for no-cors loads: CORS reads by APP_ORIGIN are unaffected.
  'cross-origin-resource-policy': 'same-origin',
};

/** Sets the security headers on every response, API and static files alike. */
export function installSecurityHeaders(app: FastifyInstance, breachCheckUrl: string | null = null): void {
  const headers =
    breachCheckUrl === null
      ? STATIC_HEADERS
      : { ...STATIC_HEADERS, 'content-security-policy': contentSecurityPolicy(breachCheckUrl) };
  // A callback hook, not an async one: it runs on every answer, and a promise per answer
  // was measurable in the API bench.
  app.addHook('onSend', (request, reply, payload, done) => {
    setSecurityHeaders(request, reply, headers);
    done(null, payload);
  });
}

/** For answers sent outside the hooks too (requests refused before routing). */
export function setSecurityHeaders(request: FastifyRequest, reply: FastifyReply, headers = STATIC_HEADERS): void {
  reply.headers(headers);
  if (request.protocol === 'https') reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
  if (isApiPath(request.url)) reply.header('cache-control', 'no-store');
}

export function isApiPath(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
}
