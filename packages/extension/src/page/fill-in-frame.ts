/**
 * Runs inside one frame, in the extension's isolated world, injected by
 * chrome.scripting.executeScript for one document the service worker chose. It is serialised
 * as source, so it must use nothing from outside its own body (no imports, no closures).
 *
 * Security invariants:
 * - It fills nothing unless the frame's origin is still `expectedOrigin` (the document may have
 *   navigated since the worker looked).
 * - It fills only fields a person can see: rendered, not visibility:hidden, no opacity 0 on the
 *   field or any ancestor, at least 8 x 8 CSS pixels, and inside the page (not pushed to
 *   negative coordinates or beyond its width). A password field that fails any check means no
 *   fill at all, user name included: an invisible form is how pages harvest what managers fill.
 * - It reads nothing from the page into the worker: it answers only a count.
 * - In 'new-password' mode (a generated password, on the person's click in the inline menu) it
 *   fills only the form's new-password fields (autocomplete="new-password", else the password
 *   and its confirmation in a form with two), each visible; never a user name.
 */
export function fillInFrame(
  expectedOrigin: string,
  username: string,
  password: string,
  mode: 'login' | 'new-password' = 'login',
): { filled: number; refused?: string } {
  if (location.origin !== expectedOrigin) return { filled: 0, refused: 'The frame moved to another site.' };
  const MIN_SIZE = 8;
  const visible = (element: HTMLElement): boolean => {
    if (!element.isConnected) return false;
    if (!element.checkVisibility({ opacityProperty: true, visibilityProperty: true, contentVisibilityAuto: true })) return false;
    // checkVisibility's opacity test covers the element and its flat-tree ancestors; a near-zero
    // opacity is as invisible as zero.
    for (let node: Element | null = element; node; node = node.parentElement ?? (node.getRootNode() as ShadowRoot).host ?? null) {
      if (Number.parseFloat(getComputedStyle(node).opacity) < 0.1) return false;
    }
    const rect = element.getBoundingClientRect();
    if (rect.width < MIN_SIZE || rect.height < MIN_SIZE) return false;
    const left = rect.left + scrollX;
    const top = rect.top + scrollY;
    const width = Math.max(document.documentElement.scrollWidth, innerWidth);
    return left + rect.width > 0 && top + rect.height > 0 && left < width;
  };
  const editable = (input: HTMLInputElement) => !input.disabled && !input.readOnly;
  const passwords = [...document.querySelectorAll<HTMLInputElement>('input[type="password"]')].filter(editable);
  const setValue = (input: HTMLInputElement, value: string) => {
    input.focus();
    // The native setter, so frameworks that track the value see the change; then the events a person's typing makes.
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
    if (setter) setter.call(input, value);
    else input.value = value;
    input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    input.dispatchEvent(new Event('change', { bubbles: true }));
  };
  if (mode === 'new-password') {
    const marked = passwords.filter((input) => input.autocomplete.split(/\s+/).includes('new-password'));
    const firstVisible = passwords.find(visible);
    const inForm = firstVisible?.form ? passwords.filter((input) => input.form === firstVisible.form) : [];
    const targets = marked.length > 0 ? marked : inForm.length >= 2 ? inForm : [];
    if (targets.length === 0) return { filled: 0, refused: 'No new-password field here.' };
    if (!targets.every(visible)) return { filled: 0, refused: 'The password field is not visible.' };
    for (const input of targets) setValue(input, password);
    return { filled: targets.length };
  }
  const passwordField = passwords.find(visible);
  if (!passwordField) {
    return { filled: 0, refused: passwords.length ? 'The password field is not visible.' : 'No password field here.' };
  }
  // The user name: the last visible text-like field before the password field, in its form (or page).
  const scope: ParentNode = passwordField.form ?? document;
  const textTypes = new Set(['text', 'email', 'tel', '']);
  const before = [...scope.querySelectorAll<HTMLInputElement>('input')].filter(
    (input) =>
      textTypes.has(input.type) &&
      editable(input) &&
      passwordField.compareDocumentPosition(input) & Node.DOCUMENT_POSITION_PRECEDING,
  );
  const usernameField = before.reverse().find(visible);
  const usernameHidden = before.length > 0 && usernameField === undefined;
  if (usernameHidden) return { filled: 0, refused: 'The user name field is not visible.' };
  let filled = 0;
  if (usernameField && username !== '') {
    setValue(usernameField, username);
    filled++;
  }
  setValue(passwordField, password);
  filled++;
  return { filled };
}
