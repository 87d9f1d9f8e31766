import { describe, expect, it } from 'vitest';
import { refuseMovedSettings } from './moved-settings';

describe('refuseMovedSettings', () => {
  it('stops a build given the old VITE_LOCKIT_* names, naming the server settings that replace them', () => {
    expect(() => refuseMovedSettings({ VITE_LOCKIT_AUTHOR_NAME: 'Ada', VITE_LOCKIT_SOCIAL_LINKS: 'x=/a' })).toThrow(
      'VITE_LOCKIT_AUTHOR_NAME, VITE_LOCKIT_SOCIAL_LINKS: the credit and social links are settings of the server now. Set LOCKIT_AUTHOR_NAME, LOCKIT_SOCIAL_LINKS where the server runs instead',
    );
  });

  it('lets a build without them through', () => {
    expect(() => refuseMovedSettings({})).not.toThrow();
  });
});
