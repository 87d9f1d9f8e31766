import { describe, expect, it } from 'vitest';
import { parseRef, TEMPLATE_REF } from './refs.js';

const refsIn = (template: string) => [...template.matchAll(TEMPLATE_REF)].map((match) => match[1]);

describe('secret references in a template', () => {
  it('finds references whose names have spaces, with or without spaces inside the braces', () => {
    expect(refsIn('user={{ lockit://Guest Wifi/username }} pw={{lockit://Work/Guest Wifi/password}}')).toEqual([
      'lockit://Guest Wifi/username',
      'lockit://Work/Guest Wifi/password',
    ]);
    expect(parseRef('lockit://Work/Guest Wifi/password')).toEqual({ folder: 'Work', item: 'Guest Wifi', field: 'password' });
  });

  it('does not run a reference across lines or past its closing braces', () => {
    expect(refsIn('a={{ lockit://A/password }} b={{ lockit://B/password }}')).toEqual([
      'lockit://A/password',
      'lockit://B/password',
    ]);
    expect(refsIn('a={{ lockit://A/pass\nword }}')).toEqual([]);
  });
});
