import { LOGIN_FORM, page } from './fixture-html';

/**
 * The fixture pages of the harder fills: a sign-in in steps (user name, then password, then a
 * one-time code, each its own page load), a login inside a shadow root, a login drawn late,
 * and checkout forms. Each page sets body[data-ready] once its form is there.
 */
export function fillPageFor(url: URL): string | null {
  const ready = '<script>document.body.dataset.ready = "1"</script>';
  // ?hidden=1: the step's form is transparent, as a page harvesting fills would draw it.
  const hidden = url.searchParams.get('hidden') === '1' ? 'opacity:0' : '';
  switch (url.pathname) {
    case '/step-user':
      return page(
        'Sign in',
        `<form id="login" action="/step-password" method="get" style="${hidden}">
          <label>Email or user name <input id="username" name="username" autocomplete="username"></label>
          <button type="submit">Next</button>
        </form>${ready}`,
      );
    case '/step-password':
      // The user name of the first step rides along in a hidden input, as such sites do.
      return page(
        'Enter your password',
        `<form id="login" action="/otp" method="post">
          <input type="hidden" name="username" value="${(url.searchParams.get('username') ?? '').replace(/[^\w@.-]/g, '')}">
          <label>Password <input id="password" name="password" type="password" autocomplete="current-password"></label>
          <button type="submit">Sign in</button>
        </form>${ready}`,
      );
    case '/mfa-login':
      return page('Sign in', `${LOGIN_FORM('', '', '/otp')}${ready}`);
    case '/otp':
      return page(
        'Two-step verification',
        `<form id="login" action="/done" method="post" style="${hidden}">
          <label>Code from your app <input id="code" name="code" autocomplete="one-time-code" inputmode="numeric"></label>
          <button type="submit">Verify</button>
        </form>${ready}`,
      );
    case '/shadow':
      // ?mode=open or closed: the login form lives in a web component's shadow root.
      return page('Sign in', '<login-box></login-box><script src="/shadow.js"></script>');
    case '/late':
      return page('Sign in', '<p id="loading">Loading…</p><script src="/late.js"></script>');
    case '/checkout': {
      // ?expiry=split: month and year as two selects; ?tiny=1: a 1x1 security code field.
      const split = url.searchParams.get('expiry') === 'split';
      const tiny = url.searchParams.get('tiny') === '1' ? 'width:1px;height:1px;padding:0;border:0' : '';
      const months = Array.from({ length: 12 }, (_, index) => String(index + 1).padStart(2, '0'))
        .map((month) => `<option value="${month}">${month}</option>`)
        .join('');
      const years = Array.from({ length: 10 }, (_, index) => String(2026 + index))
        .map((year) => `<option value="${year}">${year}</option>`)
        .join('');
      const expiry = split
        ? `<label>Month <select id="cc-exp-month" autocomplete="cc-exp-month"><option value="">--</option>${months}</select></label>
           <label>Year <select id="cc-exp-year" autocomplete="cc-exp-year"><option value="">--</option>${years}</select></label>`
        : '<label>Expiry <input id="cc-exp" autocomplete="cc-exp" placeholder="MM/YY"></label>';
      return page(
        'Checkout',
        `<form id="checkout" action="/done" method="post">
          <label>Name on card <input id="cc-name" autocomplete="cc-name"></label>
          <label>Card number <input id="cc-number" autocomplete="cc-number" inputmode="numeric"></label>
          ${expiry}
          <label>Security code <input id="cc-csc" autocomplete="cc-csc" inputmode="numeric" style="${tiny}"></label>
          <label>Coupon <input id="coupon" name="coupon"></label>
          <button type="submit">Pay</button>
        </form>${ready}`,
      );
    }
    default:
      return null;
  }
}

const SHADOW_SCRIPT = `
  const mode = new URLSearchParams(location.search).get('mode') === 'closed' ? 'closed' : 'open';
  customElements.define('login-box', class extends HTMLElement {
    connectedCallback() {
      const root = this.attachShadow({ mode });
      root.innerHTML = ${JSON.stringify(LOGIN_FORM())};
      document.body.dataset.ready = '1';
    }
  });
`;

/** Draws the login form 2 s after the page loaded, as a single-page app does once its code ran. */
const LATE_SCRIPT = `
  addEventListener('load', () => setTimeout(() => {
    document.getElementById('loading').remove();
    document.body.insertAdjacentHTML('beforeend', ${JSON.stringify(LOGIN_FORM())});
    document.body.dataset.ready = '1';
  }, 2000));
`;

export const FILL_SCRIPTS: Record<string, string> = { '/shadow.js': SHADOW_SCRIPT, '/late.js': LATE_SCRIPT };
