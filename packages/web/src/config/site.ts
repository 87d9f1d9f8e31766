/**
 * Public facts about the project shown in the footer and on the About page. Kept in one
 * place so a self-hoster can point them at their own profiles. The author and social
 * addresses below are placeholders until the project's real profiles are filled in.
 */
export const site = {
  name: 'Lockit',
  tagline: 'Lock it. Save it. Own it.',
  author: {
    name: 'the Lockit author',
    profileUrl: 'https://github.com/lockit-app',
  },
  social: [
    { label: 'GitHub', href: 'https://github.com/lockit-app' },
    { label: 'LinkedIn', href: 'https://www.linkedin.com/company/lockit-app' },
    { label: 'X', href: 'https://x.com/lockit_app' },
  ],
} as const;
