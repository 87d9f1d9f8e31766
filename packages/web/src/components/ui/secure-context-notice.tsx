import { useBrowserValue } from '@/lib/browser-value';

/**
 * WebCrypto and the clipboard exist only in a secure context. On a plain-HTTP address the
 * forms cannot work, so say why and how to fix it instead of failing obscurely.
 */
export function isSecureContextNow(): boolean {
  return typeof window !== 'undefined' && window.isSecureContext === true;
}

/**
 * This very page on `localhost`: same port, path and query. Browsers treat `http://localhost`
 * as a secure context, so on the machine that runs Lockit that address works without HTTPS.
 */
export function localhostAddress(pageHref: string): string {
  const url = new URL(pageHref);
  url.protocol = 'http:';
  url.hostname = 'localhost';
  url.hash = '';
  return url.href;
}

/**
 * isSecureContextNow for a render. The prerendered HTML knows no address, so it (and the
 * render that hydrates it) assumes a secure one; where it is not, the next render says so.
 */
export function useSecureContext(): boolean {
  return useBrowserValue(isSecureContextNow, true);
}

export function SecureContextNotice() {
  if (useSecureContext()) return null;
  const localhost = localhostAddress(window.location.href);
  return (
    <section
      aria-labelledby="secure-context-title"
      className="mb-6 rounded-xl border border-amber-400/60 bg-amber-500/10 p-4 text-sm text-amber-100"
    >
      <h2 id="secure-context-title" className="mb-1 font-semibold text-amber-200">
        Lockit needs a secure connection
      </h2>
      <p>
        Lockit encrypts your data in this browser, and browsers allow encryption and the clipboard only on HTTPS or on localhost.
        This page was opened over plain HTTP, so signing in or up cannot work here.
      </p>
      <p className="mt-2">
        To fix it, serve Lockit over HTTPS (for example behind a reverse proxy with a certificate), or open{' '}
        <a className="underline" href={localhost}>
          {localhost}
        </a>{' '}
        on the computer that runs it.
      </p>
    </section>
  );
}
