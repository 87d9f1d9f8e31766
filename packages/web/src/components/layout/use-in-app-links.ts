import { useCallback } from 'react';
import { useNavigate } from 'react-router';

/**
 * A ref for markup set as HTML (the operator's credit and links, written by the server into
 * prerendered pages): a plain click on a link to this app's own origin navigates inside the app,
 * as the app's other links do, instead of loading the page again. Links elsewhere, links with a
 * target, and clicks with a modifier key (a new tab or window) are left to the browser. Enter on
 * a focused link is a click too, so the keyboard gets the same. (A listener on the element, not
 * a JSX handler: the links are the interactive elements, the wrapper only hears their clicks.)
 */
export function useInAppLinks(): (element: HTMLElement | null) => (() => void) | undefined {
  const navigate = useNavigate();
  return useCallback(
    (element: HTMLElement | null) => {
      if (!element) return undefined;
      const onClick = (event: MouseEvent) => {
        if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
          return;
        const anchor = event.target instanceof Element ? event.target.closest('a') : null;
        if (!anchor || anchor.target !== '' || anchor.origin !== window.location.origin) return;
        event.preventDefault();
        void navigate(`${anchor.pathname}${anchor.search}${anchor.hash}`);
      };
      element.addEventListener('click', onClick);
      return () => element.removeEventListener('click', onClick);
    },
    [navigate],
  );
}
