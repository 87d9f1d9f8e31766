import { watchFormSubmissions } from './form-submit';
import { menuIsPlainlyVisible, observeVisibility, watchOverlaps, type PlacedMenu } from './menu-guard';

/**
 * The content script: it finds login fields and shows the inline menu beside them. It holds no
 * secret and asks the service worker for nothing (the worker refuses it every request but a
 * report of a sent login form, see form-submit); it answers one question of the worker: was
 * the menu plainly visible under this click?
 *
 * The menu is the extension's own page (menu.html) in an iframe inside a closed shadow root of
 * a custom element with a random name: the page cannot read into it, style inside it, or
 * post into it. What the page can do to the host (fade, cover, move it) is checked at click
 * time by menu-guard.
 */
const MENU_WIDTH = 280;
const MENU_HEIGHT = 160;

let menu: (PlacedMenu & { token: string; observer: IntersectionObserver | null; overlapWatch: MutationObserver | null }) | null =
  null;

function loginField(target: EventTarget | null): HTMLInputElement | null {
  if (!(target instanceof HTMLInputElement)) return null;
  if (target.type === 'password') return target;
  if (!['text', 'email', ''].includes(target.type)) return null;
  // A field in an open shadow root looks for its password field in that root.
  const scope: ParentNode = target.form ?? (target.getRootNode() as Document | ShadowRoot);
  return scope.querySelector('input[type="password"]') ? target : null;
}

/**
 * A field that wants a new password: autocomplete="new-password", or a sign-up form's (two
 * password fields, a password and its confirmation, or a name that says so).
 */
function wantsNewPassword(field: HTMLInputElement): boolean {
  if (field.type !== 'password') return false;
  if (field.autocomplete.split(/\s+/).includes('new-password')) return true;
  if (field.autocomplete.split(/\s+/).includes('current-password')) return false;
  const scope: ParentNode = field.form ?? document;
  if (scope.querySelectorAll('input[type="password"]').length >= 2) return true;
  return /new|confirm|sign.?up|register|create/i.test(`${field.name} ${field.id}`);
}

function randomName(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return `lockit-${[...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

function closeMenu(): void {
  menu?.observer?.disconnect();
  menu?.overlapWatch?.disconnect();
  menu?.host.remove();
  menu = null;
}

function openMenu(field: HTMLInputElement): void {
  closeMenu();
  const fieldRect = field.getBoundingClientRect();
  const left = Math.max(0, Math.min(fieldRect.left, innerWidth - MENU_WIDTH));
  const top = Math.min(fieldRect.bottom + 4, innerHeight - MENU_HEIGHT);
  if (top < 0) return;
  const name = randomName();
  // Never defined (content scripts have no customElements registry): a valid custom element
  // name is enough for attachShadow.
  const host = document.createElement(name);
  // Inline styles: the page's style sheets cannot reach a random element name by selector.
  host.style.cssText = `all: initial; position: fixed; left: ${left}px; top: ${top}px; width: ${MENU_WIDTH}px; height: ${MENU_HEIGHT}px; z-index: 2147483647; display: block; opacity: 1;`;
  const shadow = host.attachShadow({ mode: 'closed' });
  const frame = document.createElement('iframe');
  const token = crypto.randomUUID();
  // The menu offers a generated password beside a new-password field (?new-password).
  const mode = wantsNewPassword(field) ? '?new-password' : '';
  frame.src = `${chrome.runtime.getURL('menu.html')}${mode}#${token}`;
  frame.style.cssText = 'border: 0; width: 100%; height: 100%; display: block; color-scheme: normal;';
  frame.setAttribute('title', 'Lockit');
  shadow.append(frame);
  (document.body ?? document.documentElement).append(host);
  const placed = host.getBoundingClientRect();
  menu = {
    host,
    token,
    rect: { left: placed.left, top: placed.top, width: placed.width, height: placed.height },
    shownAt: performance.now(),
    observedVisible: undefined,
    overlapChangedAt: null,
    observer: null,
    overlapWatch: null,
  };
  menu.observer = observeVisibility(menu);
  menu.overlapWatch = watchOverlaps(menu);
}

document.addEventListener(
  'focusin',
  (event) => {
    // The field itself, also inside an open shadow root (the event is retargeted to its host).
    const field = event.isTrusted ? loginField(event.composedPath()[0] ?? null) : null;
    if (field) openMenu(field);
  },
  true,
);
document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape') closeMenu();
});
watchFormSubmissions();

/**
 * The worker's one question, checked by hand: zod probes for `new Function`, which a content
 * script should not do in a page's process.
 */
function verifyRequest(message: unknown): { token: string; x: number; y: number } | null {
  if (typeof message !== 'object' || message === null) return null;
  const { type, token, x, y } = message as Record<string, unknown>;
  if (type !== 'lockit-verify-menu' || typeof token !== 'string' || !Number.isFinite(x) || !Number.isFinite(y)) return null;
  return { token, x: x as number, y: y as number };
}

chrome.runtime.onMessage.addListener((message: unknown, sender, reply) => {
  // Only the extension's worker talks to the content script (a page cannot reach this listener).
  if (sender.id !== chrome.runtime.id || sender.tab) return false;
  if (typeof message === 'object' && message !== null && (message as { type?: unknown }).type === 'lockit-owns-menu') {
    reply({ owns: menu !== null && (message as { token?: unknown }).token === menu.token });
    return false;
  }
  const parsed = verifyRequest(message);
  if (!parsed || !menu || parsed.token !== menu.token) {
    reply({ visible: false, reason: 'No such menu here.' });
    return false;
  }
  // The click arrives in the menu's own coordinates: this frame's are the host's corner plus them.
  const rect = menu.host.getBoundingClientRect();
  const reason = menuIsPlainlyVisible(menu, rect.left + parsed.x, rect.top + parsed.y);
  if (reason === null) closeMenu();
  reply(reason === null ? { visible: true } : { visible: false, reason });
  return false;
});
