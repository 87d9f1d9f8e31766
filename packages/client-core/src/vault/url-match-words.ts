import type { UrlMatchRule } from '@lockit/contract';

/** How each match rule is named to a person (the item editor, the conflict view, the details). */
export const URL_MATCH_RULE_WORDS: Record<UrlMatchRule, string> = {
  'base-domain': 'base domain',
  host: 'host',
  'starts-with': 'starts with',
  exact: 'exact',
  regex: 'regular expression',
  never: 'never',
};
