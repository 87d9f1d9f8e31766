/** The HTML pieces the fixture pages share. */

/** A plain login form: user name, password, a submit button. `action` is where it posts. */
export const LOGIN_FORM = (style = '', fieldStyle = '', action = '/done') => `
  <form id="login" action="${action}" method="post" style="${style}">
    <label>User name <input id="username" name="username" autocomplete="username" style="${fieldStyle}"></label>
    <label>Password <input id="password" name="password" type="password" autocomplete="current-password" style="${fieldStyle}"></label>
    <button type="submit">Sign in</button>
  </form>`;

export function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`;
}
