import './index.css';

/**
 * The page's one script element. A prerendered landing page (its #root already holds the
 * page: tools/prerender.ts) paints from HTML and CSS alone; the app is fetched once that first
 * paint is on screen, so no script competes with it for the network or the main thread, and
 * then hydrates the markup in place. Any other route's shell is empty: the app is fetched at
 * once. The stylesheet is imported here so that it stays a <link> in the HTML and the first
 * paint is styled.
 */

/** How long a page that paints nothing (a hidden tab) waits before it loads the app anyway. */
const PAINT_WAIT_MS = 1000;

const root = document.getElementById('root');
const start = () => void import('./main');

if (root?.hasChildNodes()) afterFirstPaint(start);
else start();

/**
 * Runs `run` once the browser reports the first contentful paint (the frame on screen, not
 * only drawn), or after PAINT_WAIT_MS where no paint comes or paint timing is missing.
 */
function afterFirstPaint(run: () => void): void {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    observer?.disconnect();
    run();
  };
  let observer: PerformanceObserver | undefined;
  try {
    observer = new PerformanceObserver((list) => {
      if (list.getEntriesByName('first-contentful-paint').length > 0) once();
    });
    observer.observe({ type: 'paint', buffered: true });
  } catch {
    once();
    return;
  }
  setTimeout(once, PAINT_WAIT_MS);
}
