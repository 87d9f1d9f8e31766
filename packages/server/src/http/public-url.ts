/**
 * Hosts that a browser on this machine reaches as `localhost`. Browsers treat
 * `http://localhost` as a secure context (WebCrypto, the clipboard) but not
 * `http://127.0.0.1` everywhere, nor any other plain-HTTP address.
 */
export function isLocalOrAnyHost(host: string): boolean {
  const bare = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  return (
    bare === 'localhost' ||
    bare === '0.0.0.0' ||
    bare === '::' ||
    bare === '::1' ||
    /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare) ||
    bare === '::ffff:0.0.0.0'
  );
}

/** The plain-HTTP address of this process as a browser should type it. */
export function browserUrl(host: string, port: number): string {
  const bare = host.trim().replace(/^\[(.*)\]$/, '$1');
  const name = isLocalOrAnyHost(bare) ? 'localhost' : bare.includes(':') ? `[${bare}]` : bare;
  // URL drops a default port (80) the way a person would write it.
  return new URL(`http://${name}:${port}`).origin;
}

export interface ListeningServer {
  host: string;
  /** The port actually bound (PORT=0 picks one). */
  port: number;
  /** APP_ORIGIN: the web app is served from there, this process is its API. */
  appOrigin: string | undefined;
  /** Whether this process serves the built web app. */
  servesWebApp: boolean;
  /** TRUST_PROXY: a proxy in front of this process, usually the one that terminates TLS. */
  behindProxy: boolean;
}

export interface ReadyAnnouncement {
  /** The address a person should open: the configured public origin, else this process's own. */
  url: string;
  /** One line saying where to go, and why when that address cannot work in a browser. */
  message: string;
}

/** What main prints once the server listens, in place of Fastify's `127.0.0.1` lines. */
export function readyAnnouncement(server: ListeningServer): ReadyAnnouncement {
  const local = browserUrl(server.host, server.port);
  if (server.appOrigin) {
    return {
      url: server.appOrigin,
      message: `Lockit is ready: open ${server.appOrigin} (this process serves its API at ${local})`,
    };
  }
  if (!server.servesWebApp) {
    return { url: local, message: `Lockit API is ready at ${local} (no web app build: \`npm run build\` adds it)` };
  }
  if (isLocalOrAnyHost(server.host)) {
    const proxy = server.behindProxy ? ", or your proxy's https:// address" : '';
    return { url: local, message: `Lockit is ready: open ${local} in a browser on this machine${proxy}` };
  }
  const advice = server.behindProxy
    ? "open your proxy's https:// address"
    : 'browsers allow its encryption only over HTTPS or on localhost: put a TLS proxy in front (docs/configuration.md)';
  return { url: local, message: `Lockit is listening at ${local}; ${advice}` };
}
