import { BrowserRouter, useRoutes } from 'react-router';
import { signupModeOfPage } from '@/config/signup-mode';
import { AppProvider } from './provider';
import { routes } from './router';

/**
 * Declarative mode: the app has no loaders or actions, and a data router (createBrowserRouter)
 * would bring about 16 kB of gzip to every first paint for them.
 */
export function App() {
  return (
    <AppProvider signupMode={signupModeOfPage()}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AppProvider>
  );
}

/** The route tree, shared with the build's prerender (src/prerender/render-page.tsx). */
export function AppRoutes() {
  return useRoutes(routes);
}
