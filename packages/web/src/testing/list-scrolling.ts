/**
 * jsdom does no scrolling: it has no Element.scrollTo, which the list calls to bring a row into
 * view, and every scrollHeight is 0, which would leave the list nowhere to scroll to. Until the
 * returned function undoes it, the list's scroll container does what a browser's does: its
 * scrollHeight is the height of the rows' box, and scrollTo moves its scroll position (within
 * that height) and fires `scroll` at the next frame.
 */
export function installListScrolling(): () => void {
  const originalScrollTo = Object.getOwnPropertyDescriptor(Element.prototype, 'scrollTo');
  const originalScrollHeight = Object.getOwnPropertyDescriptor(Element.prototype, 'scrollHeight');
  const contentHeight = (element: Element) =>
    parseFloat((element.firstElementChild as HTMLElement | null)?.style.height ?? '') || 0;
  const isList = (element: Element) => element.getAttribute('data-testid') === 'vault-list';
  Object.defineProperty(Element.prototype, 'scrollHeight', {
    configurable: true,
    get(this: Element) {
      return isList(this) ? contentHeight(this) : ((originalScrollHeight?.get?.call(this) as number | undefined) ?? 0);
    },
  });
  function scrollTo(this: Element, options?: ScrollToOptions | number, y?: number) {
    const top = typeof options === 'number' ? y : options?.top;
    if (top !== undefined) this.scrollTop = Math.max(0, Math.min(top, this.scrollHeight - this.clientHeight));
    requestAnimationFrame(() => this.dispatchEvent(new Event('scroll')));
  }
  Object.defineProperty(Element.prototype, 'scrollTo', { value: scrollTo, configurable: true, writable: true });
  return () => {
    if (originalScrollTo) Object.defineProperty(Element.prototype, 'scrollTo', originalScrollTo);
    else Reflect.deleteProperty(Element.prototype, 'scrollTo');
    if (originalScrollHeight) Object.defineProperty(Element.prototype, 'scrollHeight', originalScrollHeight);
  };
}
