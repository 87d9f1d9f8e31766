const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 60 * 60 * 1000],
  ['month', 30 * 24 * 60 * 60 * 1000],
  ['week', 7 * 24 * 60 * 60 * 1000],
  ['day', 24 * 60 * 60 * 1000],
  ['hour', 60 * 60 * 1000],
  ['minute', 60 * 1000],
];

/**
 * "5 minutes ago", "yesterday", "just now" (under a minute: the server writes a session's
 * last use at most once a minute, so anything finer would be false precision).
 */
export function relativeTime(at: Date, now: Date, locale?: string): string {
  const elapsed = now.getTime() - at.getTime();
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  for (const [unit, ms] of UNITS) {
    if (Math.abs(elapsed) >= ms) return format.format(-Math.trunc(elapsed / ms), unit);
  }
  return 'just now';
}
