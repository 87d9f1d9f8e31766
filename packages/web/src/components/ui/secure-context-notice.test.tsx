// @vitest-environment-options {"url": "http://192.168.1.20:8080/signin?next=vault"}
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { localhostAddress, SecureContextNotice } from './secure-context-notice';

const setSecure = (value: boolean) => Object.defineProperty(window, 'isSecureContext', { value, configurable: true });

describe('SecureContextNotice', () => {
  it('explains the HTTPS/localhost requirement and links to this page on localhost, same port and path', () => {
    setSecure(false);
    render(<SecureContextNotice />);
    const notice = screen.getByRole('region', { name: 'Lockit needs a secure connection' });
    expect(notice).toHaveTextContent(/only on HTTPS or on localhost/);
    expect(notice).toHaveTextContent(/serve Lockit over HTTPS/);
    const link = screen.getByRole('link', { name: 'http://localhost:8080/signin?next=vault' });
    expect(link).toHaveAttribute('href', 'http://localhost:8080/signin?next=vault');
  });

  it('renders nothing in a secure context', () => {
    setSecure(true);
    const { container } = render(<SecureContextNotice />);
    expect(container).toBeEmptyDOMElement();
  });
});

describe('localhostAddress', () => {
  it('keeps the port, path and query of the page and drops its fragment', () => {
    expect(localhostAddress('http://vault.lan:3000/signup#top')).toBe('http://localhost:3000/signup');
    expect(localhostAddress('http://[fd00::5]:4000/home')).toBe('http://localhost:4000/home');
  });

  it('keeps a page on the default port without one', () => {
    expect(localhostAddress('http://192.168.1.20/')).toBe('http://localhost/');
  });
});
