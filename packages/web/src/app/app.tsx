import { BrowserRouter, useRoutes } from 'react-router';
import { AppProvider } from './provider';
import { routes } from './router';

/**
 * Declarative mode: the app has no loaders or actions, and a data router (createBrowserRouter)
 * would bring about 16 kB of gzip to every first paint for them.
 */
export function App() {
  return (
    <AppProvider>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AppProvider>
  );
}

function AppRoutes() {
  return useRoutes(routes);
}
