import { act } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { useBrowserValue } from './browser-value';

function Where() {
  return <p>{useBrowserValue(() => 'in the browser', 'prerendered')}</p>;
}

describe('useBrowserValue', () => {
  it('renders the server value into the HTML, hydrates it without a mismatch, then shows the browser value', async () => {
    const html = renderToString(<Where />);
    expect(html).toBe('<p>prerendered</p>');

    const container = document.createElement('div');
    container.innerHTML = html;
    document.body.append(container);
    const paragraph = container.querySelector('p');
    const onRecoverableError = vi.fn();
    await act(async () => {
      hydrateRoot(container, <Where />, { onRecoverableError });
    });

    expect(onRecoverableError).not.toHaveBeenCalled();
    // The same element, adopted, now with what only the browser knows.
    expect(container.querySelector('p')).toBe(paragraph);
    expect(paragraph?.textContent).toBe('in the browser');
    container.remove();
  });
});
