/**
 * The exit codes of every lockit command (docs/cli.md lists them). Scripts branch on them, so a
 * code keeps its meaning once published.
 */
export const EXIT = Object.freeze({
  ok: 0,
  /** Anything not named below. */
  error: 1,
  /** A command line that does not parse (unknown option, missing argument). */
  usage: 2,
  /** No item, field or reference matched. */
  notFound: 3,
  /** Several items matched: they are listed, and nothing is printed as the answer. */
  ambiguous: 4,
  /** The session is live but the vault is locked: `lockit unlock`. */
  locked: 5,
  /** No session (never signed in, signed out, or the session was ended elsewhere): `lockit login`. */
  loggedOut: 6,
  /** The server could not be reached or refused the request (a wrong password, a wrong code). */
  server: 7,
  /** What the server served failed a check (a rolled-back or altered vault): nothing is shown. */
  integrity: 8,
  /** The agent's folder or socket is not private to this user, or the agent could not start. */
  agent: 9,
  /**
   * A write met a newer version of the item, saved on another device since the command read it
   * (or since the --revision it named): nothing was written, both versions are kept.
   */
  conflict: 10,
});

/** @typedef {keyof typeof EXIT} ErrorCode */
