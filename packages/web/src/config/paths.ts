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
  /** The operator's page; no link leads to it, and it exists only when the server has an ADMIN_TOKEN. */
  admin: '/admin',
  /** A share link's page for its recipient (no account): `/share/<id>#<key>`. */
  shared: '/share/:id',
} as const;

export type AppPath = (typeof paths)[keyof typeof paths];
