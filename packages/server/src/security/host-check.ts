import type { FastifyInstance } from 'fastify';
import { HEALTH_PATHS } from '../observability/health-routes';
import { METRICS_PATH } from '../observability/metrics-route';
import { HttpError } from '../http/http-error';
import { hostAllowList, isAllowedHost, isLoopbackListenAddress, type AllowedHost } from '../http/allowed-hosts';

export const HOST_REFUSED =
  'This Lockit server does not answer for this host name. If it is yours, set PUBLIC_ORIGIN (or ALLOWED_HOSTS) to the address people open it at.';

/** Probes and scrapers reach the process by service name or address; these hold no user data. */
const ANY_HOST_PATHS = new Set<string>([HEALTH_PATHS.healthz, HEALTH_PATHS.readyz, METRICS_PATH]);

export interface HostCheckSettings {
  host: string;
  publicOrigin: string | undefined;
  allowedHosts: readonly AllowedHost[];
}

/**
 * DNS-rebinding defence: a page on attacker.example whose name is made to resolve to this
 * server sends `Host: attacker.example`, and the browser treats our answers as that page's
 * own. Every request whose Host is not ours is answered 421 before any route, static file or
 * 404 runs, so such a page reads nothing. The raw Host header is checked, never
 * X-Forwarded-Host, even under TRUST_PROXY: a proxy passes the Host it received through.
 */
export function installHostCheck(app: FastifyInstance, settings: HostCheckSettings): void {
  const allowList = hostAllowList(settings.publicOrigin, settings.allowedHosts);
  if (!isLoopbackListenAddress(settings.host) && !settings.publicOrigin && settings.allowedHosts.length === 0) {
    app.log.warn(
      `HOST is ${settings.host} but neither PUBLIC_ORIGIN nor ALLOWED_HOSTS is set: this server answers only requests addressed to localhost, 127.0.0.1 or [::1] (others get 421). Set PUBLIC_ORIGIN=https://<the address people open> (docs/configuration.md).`,
    );
  }
  // A callback hook, like the origin check: allowed requests pass without a promise.
  app.addHook('onRequest', (request, _reply, done) => {
    const host = request.headers.host;
    if (isAllowedHost(host, allowList) || ANY_HOST_PATHS.has(request.url.split('?', 1)[0]!)) {
      done();
      return;
    }
    request.log.info({ host: host?.slice(0, 100) }, 'request refused: Host is not one this server answers for');
    done(new HttpError(421, HOST_REFUSED));
  });
}
