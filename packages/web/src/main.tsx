import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');
const reactRoot = createRoot(root);
// As a transition, the first render runs in slices of a few milliseconds with the main
// thread free in between, instead of one task long enough to delay a tap (Lighthouse's
// Total Blocking Time). The page appears at once all the same, when the render commits.
startTransition(() => {
  reactRoot.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
