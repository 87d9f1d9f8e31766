import { useBrowserValue } from './browser-value';

const running = () => true;

/**
 * False in the build's prerendered HTML and in the render that hydrates it; true once the
 * app runs, and in every render that is not a hydration. A prerendered page is on screen
 * before its script arrives: a control that needs the app (a field whose value the app must
 * hold, a button with a handler) says it is not ready until then, rather than take input
 * the app would never see.
 */
export function useAppRunning(): boolean {
  return useBrowserValue(running, false);
}
