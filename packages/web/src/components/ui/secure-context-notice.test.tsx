import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SecureContextNotice } from './secure-context-notice';

const setSecure = (value: boolean) => Object.defineProperty(window, 'isSecureContext', { value, configurable: true });

describe('SecureContextNotice', () => {
  it('explains the HTTPS/localhost requirement and the fix on a plain-HTTP page', () => {
    setSecure(false);
    render(<SecureContextNotice />);
    const notice = screen.getByRole('region', { name: 'Lockit needs a secure connection' });
    expect(notice).toHaveTextContent(/only on HTTPS or on localhost/);
    expect(notice).toHaveTextContent(/serve Lockit over HTTPS/);
    expect(screen.getByRole('link', { name: 'http://localhost:3000' })).toHaveAttribute('href', 'http://localhost:3000');
  });

  it('renders nothing in a secure context', () => {
    setSecure(true);
    const { container } = render(<SecureContextNotice />);
    expect(container).toBeEmptyDOMElement();
  });
});
