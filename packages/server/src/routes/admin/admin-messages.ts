/** Texts of the admin API, shown by the admin page as they are. */
export const ADMIN_MESSAGES = {
  signInRequired: 'Please sign in with the admin token.',
  wrongToken: 'That admin token is not right.',
  signedIn: 'Signed in as the operator',
  signedOut: 'Signed out',
  ok: 'OK',
  noSuchUser: 'No account with that id.',
  disabled: 'Account disabled; its sessions have ended',
  alreadyDisabled: 'Account was already disabled',
  enabled: 'Account enabled',
  alreadyEnabled: 'Account was not disabled',
  deleted: 'Account deleted',
  sessionsEnded: 'Sessions ended',
  inviteCreated: 'Invite created',
} as const;
