/**
 * jsdom does no layout: every element measures 0 × 0, so a virtualized list would believe
 * its viewport is empty and render (almost) no rows. This gives the vault's scroll container
 * and its rows the sizes a browser would, and nothing else: production code is unchanged.
 * The list takes rows at its own estimate (72 px) unless it reads their height, which the
 * tests count: about 8 rows fill this viewport, and the list adds its overscan rows.
 */
export const TEST_LIST_VIEWPORT_PX = 600;
export const TEST_ROW_HEIGHT_PX = 60;

const isVaultList = (element: Element) => element.getAttribute('data-testid') === 'vault-list';
const isVaultRow = (element: Element) => element.hasAttribute('data-entry-id');

/** Reads of a row's height: in a browser, each one after a DOM change forces a layout. */
let rowHeightReads = 0;
export const rowHeightReadsSoFar = () => rowHeightReads;
const countedRowHeight = (element: HTMLElement) => {
  if (!isVaultRow(element)) return undefined;
  rowHeightReads += 1;
  return TEST_ROW_HEIGHT_PX;
};

function override(proto: object, property: string, size: (element: HTMLElement) => number | undefined): void {
  const original = Object.getOwnPropertyDescriptor(proto, property);
  Object.defineProperty(proto, property, {
    configurable: true,
    get(this: HTMLElement) {
      return size(this) ?? (original?.get?.call(this) as number | undefined) ?? 0;
    },
  });
}

export function installVaultListLayout(): void {
  // jsdom has no scrollIntoView; where a browser would scroll, nothing is laid out here to scroll.
  Element.prototype.scrollIntoView ??= () => {};
  override(Element.prototype, 'clientHeight', (el) => (isVaultList(el) ? TEST_LIST_VIEWPORT_PX : undefined));
  override(Element.prototype, 'clientWidth', (el) => (isVaultList(el) ? 800 : undefined));
  override(HTMLElement.prototype, 'offsetHeight', countedRowHeight);
  override(HTMLElement.prototype, 'offsetWidth', (el) => (isVaultRow(el) ? 800 : undefined));
}
