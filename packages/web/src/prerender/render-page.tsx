import { StrictMode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import { AppRoutes } from '@/app/app';
import { AppProvider } from '@/app/provider';

import type { SignupMode } from '@lockit/contract/paths';

export { PRERENDERED_PAGES, SIGNUP_MODES, SIGNUP_MODE_META, pageFileFor } from '@lockit/contract/paths';

/**
 * The HTML of one route as the app's first render in a browser makes it: the same providers
 * and route tree as src/app/app.tsx, with a static router in place of the browser's. Used at
 * build time only (tools/prerender.ts); the browser then hydrates it (src/main.tsx), so the
 * two must render the same markup. `prerender` waits for the lazy pages, so the page itself
 * is in the HTML, not the spinner, and it writes no inline script. `signupMode` is the mode
 * the page is made for (decision 0044): the server sends it to browsers under that mode only.
 */
export async function renderPage(url: string, signupMode: SignupMode): Promise<string> {
  const errors: unknown[] = [];
  const { prelude } = await prerenderToNodeStream(
    <StrictMode>
      <AppProvider signupMode={signupMode}>
        <StaticRouter location={url}>
          <AppRoutes />
        </StaticRouter>
      </AppProvider>
    </StrictMode>,
    { onError: (error) => void errors.push(error) },
  );
  // An error makes React fall back to rendering that part in the browser: a page that would
  // flash, so the build stops instead.
  if (errors.length > 0) throw errors[0];
  const chunks: Buffer[] = [];
  for await (const chunk of prelude) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
}
