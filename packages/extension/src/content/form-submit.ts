/**
 * Notices a login or sign-up form being sent and tells the worker what was typed, so it can
 * offer to save it. As Bitwarden's extension does, two signals count: the form's submit
 * event, and a click (or Enter) on its button followed by the form going away, for pages that
 * sign in by script without submitting. Only the person's own actions count (isTrusted): a
 * page's synthetic events report nothing.
 *
 * The worker trusts none of it beyond "this page says": it takes the site from the browser's
 * sender, offers in its own popup only, and saves only on the person's yes.
 */

/** How long after a click the form is watched for going away. */
const WATCH_MS = 5000;
const SUBMIT_WORDS = /log\s*in|sign\s*in|sign\s*up|register|create|continue|next|submit|save|anmelden|connexion/i;

/** The password a person typed in `scope`: a new-password field's first, else the first filled one. */
function passwordIn(scope: ParentNode): HTMLInputElement | null {
  const filled = [...scope.querySelectorAll<HTMLInputElement>('input[type="password"]')].filter((input) => input.value !== '');
  return filled.find((input) => input.autocomplete.split(/\s+/).includes('new-password')) ?? filled[0] ?? null;
}

/** The user name typed before the password field: the last filled text-like field before it. */
function usernameBefore(password: HTMLInputElement): string {
  const scope: ParentNode = password.form ?? document;
  const before = [...scope.querySelectorAll<HTMLInputElement>('input')].filter(
    (input) =>
      ['text', 'email', 'tel', ''].includes(input.type) &&
      input.value !== '' &&
      password.compareDocumentPosition(input) & Node.DOCUMENT_POSITION_PRECEDING,
  );
  return (before[before.length - 1]?.value ?? '').trim().slice(0, 200);
}

function report(password: HTMLInputElement, trigger: 'submit' | 'click'): void {
  const message = {
    type: 'login-submitted',
    username: usernameBefore(password),
    password: password.value.slice(0, 1024),
    trigger,
  };
  void chrome.runtime.sendMessage(message).catch(() => undefined);
}

/** After a click on a form's button: the form counts as sent once its password field is gone or hidden. */
function watchUntilGone(password: HTMLInputElement): void {
  const started = performance.now();
  const timer = setInterval(() => {
    const gone = !password.isConnected || !password.checkVisibility();
    if (gone) void chrome.runtime.sendMessage({ type: 'login-form-gone' }).catch(() => undefined);
    if (gone || performance.now() - started > WATCH_MS) clearInterval(timer);
  }, 250);
}

/** The form or page part a submit-like button belongs to, or null when it is no such button. */
function submitScope(target: EventTarget | null): ParentNode | null {
  if (!(target instanceof Element)) return null;
  const button = target.closest('button, input[type="submit"], input[type="button"], [role="button"]');
  if (!button) return null;
  if (button instanceof HTMLButtonElement && button.form && button.type === 'submit') return button.form;
  if (button instanceof HTMLInputElement && button.type === 'submit' && button.form) return button.form;
  const label =
    (button.textContent ?? '') +
    ' ' +
    (button.getAttribute('aria-label') ?? '') +
    ' ' +
    ((button as HTMLInputElement).value ?? '');
  if (!SUBMIT_WORDS.test(label)) return null;
  return button.closest('form') ?? document;
}

export function watchFormSubmissions(): void {
  document.addEventListener(
    'submit',
    (event) => {
      if (!event.isTrusted || !(event.target instanceof HTMLFormElement)) return;
      const password = passwordIn(event.target);
      if (password) report(password, 'submit');
    },
    true,
  );
  document.addEventListener(
    'click',
    (event) => {
      if (!event.isTrusted) return;
      const scope = submitScope(event.target);
      const password = scope ? passwordIn(scope) : null;
      if (!password) return;
      report(password, 'click');
      watchUntilGone(password);
    },
    true,
  );
  // Enter in a password field outside a form sends nothing a submit event would see.
  document.addEventListener(
    'keydown',
    (event) => {
      if (!event.isTrusted || event.key !== 'Enter') return;
      const field = event.target;
      if (!(field instanceof HTMLInputElement) || field.type !== 'password' || field.form || field.value === '') return;
      report(field, 'click');
      watchUntilGone(field);
    },
    true,
  );
}
