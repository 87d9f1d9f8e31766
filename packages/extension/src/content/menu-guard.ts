/**
 * Whether the inline menu is plainly visible to the person at the moment of a click: the
 * checks the field's clickjacking reports call for, taken in the page's frame by the content
 * script (the menu's own page cannot see the page around it).
 *
 * Security invariants: every check must pass, and each is taken at click time, never cached
 * from when the menu opened:
 * - the host is still where it was put, the same size, inside the viewport;
 * - no opacity below 1, no filter, no visibility change on the host or any ancestor
 *   (a page hides the menu by fading it or its body);
 * - the host is the topmost element at the click point (elementsFromPoint), so no element of
 *   the page covers it there;
 * - where the browser has IntersectionObserver v2, its last report says the host is visible:
 *   this catches covers that take no clicks (pointer-events: none), which hit tests skip;
 * - the menu has been shown, unmoved, for at least MIN_SHOWN_MS: a page that flips an
 *   overlay away just before a lured click gains nothing;
 * - no element over the menu's place was added or changed in the last MIN_SHOWN_MS
 *   (watchOverlaps): a cover shown and hidden faster than the observer samples is caught by
 *   its changes, whatever phase the click lands in.
 */
export const MIN_SHOWN_MS = 500;

export interface PlacedMenu {
  host: HTMLElement;
  /** Where the host was placed (viewport coordinates, CSS pixels). */
  rect: { left: number; top: number; width: number; height: number };
  shownAt: number;
  /** The last IntersectionObserver v2 verdict; undefined where the browser has none. */
  observedVisible: boolean | undefined;
  /** When an element over the menu's place was last added or changed (performance.now()); null for never. */
  overlapChangedAt: number | null;
}

export function menuIsPlainlyVisible(menu: PlacedMenu, clickX: number, clickY: number, now = performance.now()): string | null {
  const { host } = menu;
  if (!host.isConnected) return 'The menu is gone.';
  if (now - menu.shownAt < MIN_SHOWN_MS) return 'The menu was not shown long enough.';
  if (menu.overlapChangedAt !== null && now - menu.overlapChangedAt < MIN_SHOWN_MS)
    return 'The page just changed what is over the menu.';
  const rect = host.getBoundingClientRect();
  const placed = menu.rect;
  const moved =
    Math.abs(rect.left - placed.left) > 1 ||
    Math.abs(rect.top - placed.top) > 1 ||
    Math.abs(rect.width - placed.width) > 1 ||
    Math.abs(rect.height - placed.height) > 1;
  if (moved) return 'The menu was moved.';
  if (rect.left < 0 || rect.top < 0 || rect.right > innerWidth || rect.bottom > innerHeight) return 'The menu is out of view.';
  for (let node: Element | null = host; node; node = node.parentElement) {
    const style = getComputedStyle(node);
    if (style.opacity !== '1') return 'The menu is not fully opaque.';
    if (style.filter !== 'none') return 'The menu is filtered.';
    if (node === host && style.visibility !== 'visible') return 'The menu is hidden.';
    if (style.display === 'none' || style.contentVisibility === 'hidden') return 'The menu is hidden.';
  }
  // The click, in this frame's viewport: it must land on the menu, and the menu must be on top there.
  if (clickX < rect.left || clickX > rect.right || clickY < rect.top || clickY > rect.bottom)
    return 'The click was not on the menu.';
  const [topmost] = document.elementsFromPoint(clickX, clickY);
  if (topmost !== host) return 'Something covers the menu.';
  if (menu.observedVisible === false) return 'The browser reports the menu as covered or faded.';
  return null;
}

/**
 * Watches the host with IntersectionObserver v2 (trackVisibility) where the browser has it; the
 * verdict is kept on `menu.observedVisible`. Returns the observer to disconnect.
 */
export function observeVisibility(menu: PlacedMenu): IntersectionObserver | null {
  const options = { threshold: [1], trackVisibility: true, delay: 100 } as IntersectionObserverInit;
  if (!('isVisible' in IntersectionObserverEntry.prototype)) return null;
  menu.observedVisible = false;
  const observer = new IntersectionObserver((entries) => {
    const last = entries[entries.length - 1] as (IntersectionObserverEntry & { isVisible?: boolean }) | undefined;
    if (last) menu.observedVisible = last.isVisible === true;
  }, options);
  observer.observe(menu.host);
  return observer;
}

/**
 * Notes on `menu.overlapChangedAt` every time the page adds an element, or changes the
 * attributes (style, class, hidden…) of one, whose box then overlaps the menu's place. A cover
 * toggled every few milliseconds changes each time it comes back, so a click within
 * MIN_SHOWN_MS of any of those changes is refused. Returns the observer to disconnect.
 */
export function watchOverlaps(menu: PlacedMenu): MutationObserver {
  const place = menu.rect;
  const overlaps = (element: Element): boolean => {
    if (element === menu.host || element.contains(menu.host)) return false;
    const box = element.getBoundingClientRect();
    return (
      box.width > 0 &&
      box.height > 0 &&
      box.left < place.left + place.width &&
      box.right > place.left &&
      box.top < place.top + place.height &&
      box.bottom > place.top
    );
  };
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      const changed =
        record.type === 'attributes' ? [record.target] : [...record.addedNodes].filter((node) => node instanceof Element);
      if (changed.some((node) => node instanceof Element && overlaps(node))) {
        menu.overlapChangedAt = performance.now();
        return;
      }
    }
  });
  observer.observe(document.documentElement, { subtree: true, childList: true, attributes: true });
  return observer;
}
