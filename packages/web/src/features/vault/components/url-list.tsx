import { DOCUMENT_LIMITS, ENTRY_PLAINTEXT_LIMITS, URL_MATCH_RULES, type UrlMatchRule } from '@lockit/contract';
import { URL_MATCH_RULE_WORDS } from '@lockit/client-core';
import { TextInput } from '@/components/ui/text-input';
import { inputClass, linkButton, smallButton } from './entry-form-sections';

type Rules = Record<string, UrlMatchRule>;

/**
 * Several web addresses, each with how the browser extension matches it; the first is the
 * spec's URL field (same label). A rule is kept by its address, so it follows the address when
 * rows above it are removed; "Extension default" (no rule) is what every address had before.
 */
export function UrlList({
  urls,
  rules = {},
  onChange,
}: {
  urls: readonly string[];
  rules?: Readonly<Rules>;
  onChange: (urls: string[], rules: Rules) => void;
}) {
  const shown = urls.length === 0 ? [''] : urls;
  const rows = shown.map((url) => ({ url, rule: rules[url] ?? null }));
  const labelOf = (index: number) => (index === 0 ? 'URL (optional)' : `URL ${index + 1}`);
  const change = (next: { url: string; rule: UrlMatchRule | null }[]) => {
    const nextRules: Rules = {};
    for (const row of next) if (row.rule !== null) nextRules[row.url] = row.rule;
    onChange(
      next.map((row) => row.url),
      nextRules,
    );
  };
  return (
    <div className="flex flex-col gap-2">
      {rows.map((row, index) => (
        <div key={index} className="flex flex-wrap items-end gap-2">
          <div className="min-w-[12rem] flex-1">
            <TextInput
              label={labelOf(index)}
              name={index === 0 ? 'url' : `url-${index + 1}`}
              inputMode="url"
              autoComplete="off"
              value={row.url}
              maxLength={index === 0 ? ENTRY_PLAINTEXT_LIMITS.url : DOCUMENT_LIMITS.url}
              onChange={(event) => change(rows.with(index, { ...row, url: event.target.value }))}
            />
          </div>
          <label className="flex flex-col gap-1 text-sm text-slate-300">
            <span aria-hidden="true">Match</span>
            {/* Named by the address's number, not its label: "URL 2" inside this name would make
                the select a second match for anything looking the address field up by its label. */}
            <select
              aria-label={`Match for address ${index + 1}`}
              value={row.rule ?? ''}
              onChange={(event) =>
                change(
                  rows.with(index, { ...row, rule: event.target.value === '' ? null : (event.target.value as UrlMatchRule) }),
                )
              }
              className={`${inputClass} w-auto`}
            >
              <option value="">Extension default</option>
              {URL_MATCH_RULES.map((rule) => (
                <option key={rule} value={rule}>
                  {capitalised(URL_MATCH_RULE_WORDS[rule])}
                </option>
              ))}
            </select>
          </label>
          {rows.length > 1 && (
            <button type="button" className={smallButton} onClick={() => change(rows.filter((_, i) => i !== index))}>
              Remove <span className="sr-only">{labelOf(index)}</span>
            </button>
          )}
        </div>
      ))}
      {rows.length < DOCUMENT_LIMITS.urls && (
        <button type="button" className={`${linkButton} self-start`} onClick={() => change([...rows, { url: '', rule: null }])}>
          Add another URL
        </button>
      )}
    </div>
  );
}

function capitalised(words: string): string {
  return words.charAt(0).toUpperCase() + words.slice(1);
}
