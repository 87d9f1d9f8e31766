import { describe, expect, it } from 'vitest';
import { monogramOf } from './monogram';

const letters = (name: string, url?: string) => monogramOf(name, url).letters;

describe('monogramOf letters', () => {
  it('takes the first letters of the first two words, upper case', () => {
    expect(letters('example bank savings')).toBe('EB');
    expect(letters('GitHub')).toBe('G');
    expect(letters('my-bank')).toBe('MB');
    expect(letters('  work_mail ')).toBe('WM');
  });

  it('keeps an accented letter whole, whether composed or not', () => {
    expect(letters('Émoji Bank')).toBe('ÉB');
    expect(letters('E\u0301moji bank')).toBe('ÉB');
    expect(letters('łódź')).toBe('Ł');
  });

  it('keeps an emoji whole, even one made of several code points', () => {
    expect(letters('🏦 Bank')).toBe('🏦B');
    expect(letters('👨‍👩‍👧 family')).toBe('👨‍👩‍👧F');
    expect(letters('🇩🇪 Behörde')).toBe('🇩🇪B');
  });

  it('skips punctuation in front of a word', () => {
    expect(letters('(old) "Bank"')).toBe('OB');
  });

  it('does not turn one letter into two when upper-casing', () => {
    expect(letters('ß')).toBe('ß');
  });

  it('takes the site of a URL-like name', () => {
    expect(letters('https://mail.google.com/inbox')).toBe('G');
    expect(letters('www.github.com')).toBe('G');
    expect(letters('news.bbc.co.uk')).toBe('B');
    expect(letters('http://192.168.1.1:8080')).toBe('1');
  });

  it('falls back to the address when the name has nothing to show, then to "?"', () => {
    expect(letters('', 'https://accounts.example.org/login')).toBe('E');
    expect(letters('---', 'https://example.org')).toBe('E');
    expect(letters('')).toBe('?');
    expect(letters('', 'not an address')).toBe('?');
  });

  it('prefers the name over the address', () => {
    expect(letters('Savings', 'https://example.org')).toBe('S');
  });

  it('shows letters of any script', () => {
    expect(letters('微信 支付')).toBe('微支');
    expect(letters('почта банк')).toBe('ПБ');
  });
});

describe('monogramOf hue', () => {
  it('is a whole number from 0 to 359', () => {
    for (const name of ['a', 'GitHub', 'Émoji Bank', '', '🏦', 'x'.repeat(500)]) {
      const { hue } = monogramOf(name);
      expect(Number.isInteger(hue) && hue >= 0 && hue < 360, name).toBe(true);
    }
  });

  it('is the same for the same name on every call, whatever the case, accents and spacing', () => {
    expect(monogramOf('Émoji  Bank').hue).toBe(monogramOf('emoji bank').hue);
    expect(monogramOf('GitHub').hue).toBe(monogramOf('GitHub').hue);
  });

  it('spreads different names over the colour wheel', () => {
    const hues = new Set(
      ['GitHub', 'GitLab', 'Bank', 'Mail', 'Shop', 'Work', 'Home', 'Phone', 'Cloud', 'Games'].map((name) => monogramOf(name).hue),
    );
    expect(hues.size).toBeGreaterThanOrEqual(8);
  });

  it('comes from the address when the entry has no name', () => {
    expect(monogramOf('', 'https://a.example').hue).not.toBe(monogramOf('', 'https://b.example').hue);
  });
});
