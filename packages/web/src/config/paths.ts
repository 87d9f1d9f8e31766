/** Every route of the app, named once. */
export const paths = {
  splash: '/',
  home: '/home',
  about: '/about',
  signIn: '/signin',
  signUp: '/signup',
  vault: '/vault',
  profile: '/profile',
  generator: '/generator',
  health: '/vault/health',
  import: '/vault/import',
  export: '/vault/export',
} as const;

export type AppPath = (typeof paths)[keyof typeof paths];
