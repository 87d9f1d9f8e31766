import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');
const app = (
  <StrictMode>
    <App />
  </StrictMode>
);
// As a transition, the first render (or hydration) runs in slices of a few milliseconds with
// the main thread free in between, instead of one task long enough to delay a tap
// (Lighthouse's Total Blocking Time). The page appears at once all the same, when it commits.
if (root.hasChildNodes()) {
  // A prerendered landing page: React adopts the markup already on screen. A lazy page whose
  // chunk has not arrived keeps its server HTML until it has, so nothing flashes meanwhile.
  startTransition(() => void hydrateRoot(root, app));
} else {
  const reactRoot = createRoot(root);
  startTransition(() => reactRoot.render(app));
}
