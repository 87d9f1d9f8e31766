import type { Answer, FillResult } from '../shared/messages';

/**
 * The inline menu: the extension's own page, framed by the content script inside a closed
 * shadow root. It lists the names and user names of the frame's items (never a secret) and
 * asks the worker to fill one on a person's click; the worker first has the content script
 * check that the menu was plainly visible under that click.
 */
const token = location.hash.slice(1);
const list = document.getElementById('items')!;
const message = document.getElementById('message')!;

async function send<T>(request: unknown): Promise<T> {
  const answer = (await chrome.runtime.sendMessage(request)) as Answer<T> | undefined;
  if (!answer?.ok) throw new Error(answer?.error ?? 'Lockit did not answer.');
  return answer.value;
}

/**
 * Beside a new-password field (?new-password): a generated password, made and filled by the
 * worker on the person's click, after the same visibility check as a fill. The menu never
 * sees the password.
 */
function offerGenerated(): void {
  if (location.search !== '?new-password') return;
  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = 'Use a generated password';
  button.addEventListener('click', (event) => {
    if (!event.isTrusted) return;
    void send<FillResult>({ type: 'menu-generate', token, x: event.clientX, y: event.clientY }).then(
      (result) =>
        (message.textContent =
          result.filled > 0
            ? 'Filled a generated password. Lockit offers to save it once you sign up.'
            : (result.refused ?? 'Nothing was filled.')),
      (error: unknown) => (message.textContent = error instanceof Error ? error.message : 'Nothing was filled.'),
    );
  });
  const row = document.createElement('li');
  row.append(button);
  list.append(row);
}

async function show(): Promise<void> {
  let items: Array<{ id: string; name: string; username: string }>;
  try {
    items = await send({ type: 'menu-items', token });
  } catch (error) {
    message.textContent = error instanceof Error ? error.message : 'Lockit is not available.';
    return;
  }
  if (items.length === 0 && location.search !== '?new-password') message.textContent = 'No logins for this site.';
  for (const item of items) {
    const button = document.createElement('button');
    button.type = 'button';
    const name = document.createElement('div');
    name.textContent = item.name;
    const user = document.createElement('div');
    user.className = 'user';
    user.textContent = item.username;
    button.append(name, user);
    button.addEventListener('click', (event) => {
      // Only a person's click: a script of this page could not click here anyway, but nothing else is a gesture.
      if (!event.isTrusted) return;
      void send<FillResult>({ type: 'menu-fill', token, id: item.id, x: event.clientX, y: event.clientY }).then(
        (result) =>
          (message.textContent = result.filled > 0 ? `Filled ${item.name}.` : (result.refused ?? 'Nothing was filled.')),
        (error: unknown) => (message.textContent = error instanceof Error ? error.message : 'Nothing was filled.'),
      );
    });
    const row = document.createElement('li');
    row.append(button);
    list.append(row);
  }
}

offerGenerated();
void show();
