import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { site } from '@/config/site';
import { sinceFirstPaint } from '@/lib/first-paint';
import { logFailure, logInfo } from '@/lib/log';
import { refreshToken } from '@/lib/refresh-token';

/** The spec's timings: the card alone for 2.5 s, then "Loading Home..." for 0.8 s. */
export const SPLASH_CARD_MS = 2500;
export const SPLASH_FADE_MS = 800;

/**
 * Splash: a gradient card, then "Loading Home...", then /home. On mount it renews the
 * session silently (so a returning visitor's header is right); the result is only logged.
 * Opened by its address, the card is on screen from the page's first paint (the build
 * prerenders it), before the app has loaded: the timings count from that paint.
 */
export function SplashPage() {
  const navigate = useNavigate();
  // The page load's own location; a later visit to / (a link) starts the card afresh.
  const pageLoad = useLocation().key === 'default';
  const [leaving, setLeaving] = useState(false);

  useEffect(() => {
    refreshToken().then(
      (message) => logInfo('Token refresh', message),
      (error: unknown) => logFailure('Token refresh', error),
    );
  }, []);

  useEffect(() => {
    const shown = pageLoad ? Math.min(sinceFirstPaint(), SPLASH_CARD_MS) : 0;
    const fade = setTimeout(() => setLeaving(true), SPLASH_CARD_MS - shown);
    return () => clearTimeout(fade);
  }, [pageLoad]);

  // Counted from when "Loading Home..." is on screen, not from the card: a busy page that shows
  // it late still shows it for the spec's 0.8 s.
  useEffect(() => {
    if (!leaving) return;
    const go = setTimeout(() => navigate(paths.home, { replace: true }), SPLASH_FADE_MS);
    return () => clearTimeout(go);
  }, [leaving, navigate]);

  return (
    <section className="flex min-h-[70vh] flex-col items-center justify-center gap-8 px-4">
      <div className="w-full max-w-md rounded-3xl bg-gradient-to-br from-cyan-500 via-indigo-600 to-fuchsia-600 p-[2px] shadow-2xl">
        <div className="rounded-3xl bg-slate-950/85 px-8 py-12 text-center">
          <h1 className="bg-gradient-to-r from-cyan-300 to-fuchsia-400 bg-clip-text text-5xl font-extrabold tracking-wider text-transparent">
            {site.name}
          </h1>
          <p className="mt-4 text-slate-300">{site.tagline}</p>
        </div>
      </div>
      {/* The status line holds its place from the first paint: "Loading Home..." appears in it
          without moving the card (no layout shift), and a live region that exists before its
          text changes is the one screen readers announce. */}
      <p role="status" className="min-h-6 text-slate-400">
        {leaving && <span className="animate-fade-in">Loading Home...</span>}
      </p>
    </section>
  );
}
