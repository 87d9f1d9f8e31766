/** What one fill puts into a frame: a login (with its current one-time code), a generated password, or a card. */
export type FrameFill =
  | { kind: 'login'; username: string; password: string; code: string | null }
  | { kind: 'new-password'; password: string }
  | {
      kind: 'card';
      number: string;
      holder: string;
      /** Two digits, '' when unknown. */
      expMonth: string;
      /** Four digits, '' when unknown. */
      expYear: string;
      code: string;
    };

/**
 * Runs inside one frame, in the extension's isolated world, injected by
 * chrome.scripting.executeScript for one document the service worker chose. It is serialised
 * as source, so it must use nothing from outside its own body (no imports, no closures).
 *
 * Fields are looked for in the document and in every OPEN shadow root inside it (a page's web
 * components); a closed shadow root is the page's own and is left alone.
 *
 * Security invariants:
 * - It fills nothing unless the frame's origin is still `expectedOrigin` (the document may have
 *   navigated since the worker looked).
 * - It fills only fields a person can see: rendered, not visibility:hidden, no opacity below
 *   0.1 on the field or any ancestor (across shadow hosts), at least 8 x 8 CSS pixels, and
 *   inside the page (not pushed to negative coordinates or beyond its width). A field it would
 *   fill that fails any check means no fill at all: an invisible form is how pages harvest
 *   what managers fill.
 * - It reads nothing from the page into the worker: it answers only a count.
 * - A frame with no field of the kind asked for yet (a form a script draws after load) is
 *   looked at again for `waitMs` (at most 5 s) after the person's fill, never longer, and
 *   filled by the same checks; it answers at once when there is one, and says `absent` when
 *   there is still none.
 * - 'login': a password field and the user name before it; with no password field, the step
 *   of a multi-step sign-in that is there: a one-time-code field (autocomplete="one-time-code")
 *   gets the code, else a user name field gets the user name. Never a password into anything
 *   but a password field.
 * - 'new-password' (a generated password, on the person's click in the inline menu): only the
 *   form's new-password fields (autocomplete="new-password", else the password and its
 *   confirmation in a form with two), each visible; never a user name.
 * - 'card': only fields marked autocomplete="cc-*" (number, name, expiry, security code), each
 *   visible; never anything else.
 */
export async function fillInFrame(
  expectedOrigin: string,
  fill: FrameFill,
  waitMs = 0,
): Promise<{ filled: number; refused?: string; absent?: true }> {
  if (location.origin !== expectedOrigin) return { filled: 0, refused: 'The frame moved to another site.' };
  const MIN_SIZE = 8;
  const NOT_VISIBLE = 'The password field is not visible.';
  const parentOf = (node: Element): Element | null => {
    if (node.parentElement) return node.parentElement;
    const root = node.getRootNode();
    return root instanceof ShadowRoot ? root.host : null;
  };
  const visible = (element: HTMLElement): boolean => {
    if (!element.isConnected) return false;
    if (!element.checkVisibility({ opacityProperty: true, visibilityProperty: true, contentVisibilityAuto: true })) return false;
    // checkVisibility's opacity test covers the element and its flat-tree ancestors; a near-zero
    // opacity is as invisible as zero.
    for (let node: Element | null = element; node; node = parentOf(node)) {
      if (Number.parseFloat(getComputedStyle(node).opacity) < 0.1) return false;
    }
    const rect = element.getBoundingClientRect();
    if (rect.width < MIN_SIZE || rect.height < MIN_SIZE) return false;
    const left = rect.left + scrollX;
    const top = rect.top + scrollY;
    const width = Math.max(document.documentElement.scrollWidth, innerWidth);
    return left + rect.width > 0 && top + rect.height > 0 && left < width;
  };
  /** Every `selector` match under `root`, in tree order, open shadow roots included. */
  const deepAll = <T extends Element>(root: ParentNode, selector: string): T[] => {
    const found: T[] = [];
    const walk = (scope: ParentNode) => {
      for (const element of scope.querySelectorAll('*')) {
        if (element.matches(selector)) found.push(element as T);
        if (element.shadowRoot) walk(element.shadowRoot);
      }
    };
    walk(root);
    return found;
  };
  const tokens = (field: HTMLInputElement | HTMLSelectElement) => field.autocomplete.toLowerCase().split(/\s+/);
  const editable = (input: HTMLInputElement) => !input.disabled && !input.readOnly;
  const setValue = (input: HTMLInputElement | HTMLSelectElement, value: string) => {
    input.focus();
    // The native setter, so frameworks that track the value see the change; then the events a person's typing makes.
    const proto = input instanceof HTMLSelectElement ? HTMLSelectElement.prototype : HTMLInputElement.prototype;
    const setter = Object.getOwnPropertyDescriptor(proto, 'value')?.set;
    if (setter) setter.call(input, value);
    else input.value = value;
    input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    input.dispatchEvent(new Event('change', { bubbles: true }));
  };
  type Result = { filled: number; refused?: string };
  /** One look at the frame: what was filled or why not, or null when there is nothing of the kind yet. */
  const attempt = (): Result | null => {
    const inputs = deepAll<HTMLInputElement>(document, 'input').filter(editable);
    const passwords = inputs.filter((input) => input.type === 'password');

    if (fill.kind === 'card') {
      const fields = deepAll<HTMLInputElement | HTMLSelectElement>(document, 'input, select').filter(
        (field) => !field.disabled && !(field instanceof HTMLInputElement && field.readOnly),
      );
      const month = fill.expMonth;
      const year = fill.expYear;
      const values: Array<[string, string]> = [
        ['cc-number', fill.number],
        ['cc-name', fill.holder],
        ['cc-exp', month && year ? `${month}/${year.slice(-2)}` : ''],
        ['cc-exp-month', month],
        ['cc-exp-year', year],
        ['cc-csc', fill.code],
      ];
      const targets: Array<[HTMLInputElement | HTMLSelectElement, string]> = [];
      for (const [token, value] of values) {
        if (value === '') continue;
        for (const field of fields.filter((candidate) => tokens(candidate).includes(token))) {
          let chosen = value;
          if (field instanceof HTMLSelectElement) {
            // A select's options say how it wants the value: 01 or 1, 2031 or 31.
            const wanted = [value, String(Number(value)), value.slice(-2)];
            const option = [...field.options].find((candidate) => wanted.includes(candidate.value.trim()));
            if (!option) continue;
            chosen = option.value;
          }
          targets.push([field, chosen]);
        }
      }
      if (!targets.some(([field]) => tokens(field).includes('cc-number'))) return null;
      if (!targets.every(([field]) => visible(field))) return { filled: 0, refused: 'A card field is not visible.' };
      for (const [field, value] of targets) setValue(field, value);
      return { filled: targets.length };
    }

    if (fill.kind === 'new-password') {
      const marked = passwords.filter((input) => tokens(input).includes('new-password'));
      const firstVisible = passwords.find(visible);
      const inForm = firstVisible?.form ? passwords.filter((input) => input.form === firstVisible.form) : [];
      const targets = marked.length > 0 ? marked : inForm.length >= 2 ? inForm : [];
      if (targets.length === 0) return { filled: 0, refused: 'No new-password field here.' };
      if (!targets.every(visible)) return { filled: 0, refused: NOT_VISIBLE };
      for (const input of targets) setValue(input, fill.password);
      return { filled: targets.length };
    }

    const textTypes = new Set(['text', 'email', 'tel', '']);
    const codeFields = fill.code === null ? [] : inputs.filter((input) => tokens(input).includes('one-time-code'));
    const passwordField = passwords.find(visible);
    if (!passwordField) {
      if (passwords.length > 0) return { filled: 0, refused: NOT_VISIBLE };
      // A later step of a multi-step sign-in: the one-time code, else the user name alone.
      if (codeFields.length > 0) {
        if (!codeFields.every(visible)) return { filled: 0, refused: 'The code field is not visible.' };
        for (const input of codeFields) setValue(input, fill.code!);
        return { filled: codeFields.length };
      }
      const named = inputs.filter(
        (input) =>
          textTypes.has(input.type) &&
          (tokens(input).includes('username') ||
            input.type === 'email' ||
            /user|login|e-?mail|account|identifier/i.test(`${input.name} ${input.id}`)),
      );
      if (named.length === 0 || fill.username === '') return null;
      const usernameField = named.find(visible);
      if (!usernameField) return { filled: 0, refused: 'The user name field is not visible.' };
      setValue(usernameField, fill.username);
      return { filled: 1 };
    }
    // The user name: the last visible text-like field before the password field, in its form (or
    // the document or shadow root it sits in: positions across shadow trees do not compare).
    const scope: ParentNode = passwordField.form ?? (passwordField.getRootNode() as Document | ShadowRoot);
    const before = [...scope.querySelectorAll<HTMLInputElement>('input')].filter(
      (input) =>
        textTypes.has(input.type) &&
        editable(input) &&
        !tokens(input).includes('one-time-code') &&
        passwordField.compareDocumentPosition(input) & Node.DOCUMENT_POSITION_PRECEDING,
    );
    const usernameField = before.reverse().find(visible);
    const usernameHidden = before.length > 0 && usernameField === undefined;
    if (usernameHidden) return { filled: 0, refused: 'The user name field is not visible.' };
    // A code field beside the password (one form asking both) gets the code when it is visible.
    const codeField = codeFields.find(visible);
    let filled = 0;
    if (usernameField && fill.username !== '') {
      setValue(usernameField, fill.username);
      filled++;
    }
    setValue(passwordField, fill.password);
    filled++;
    if (codeField) {
      setValue(codeField, fill.code!);
      filled++;
    }
    return { filled };
  };
  const absent = {
    filled: 0,
    refused:
      fill.kind === 'card'
        ? 'No card form here.'
        : fill.kind === 'login'
          ? 'No password field here.'
          : 'No new-password field here.',
    absent: true as const,
  };
  const now = attempt();
  if (now !== null || waitMs <= 0) return now ?? absent;
  // A single-page app draws its form after load: on this one fill the person asked for, look
  // again for a little while, then fill by the same checks. Nothing is left running afterwards.
  return new Promise((resolve) => {
    const started = performance.now();
    const timer = setInterval(() => {
      const result = attempt();
      if (result === null && performance.now() - started < Math.min(waitMs, 5000)) return;
      clearInterval(timer);
      resolve(result ?? absent);
    }, 100);
  });
}
