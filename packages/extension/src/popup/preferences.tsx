import { useState } from 'react';
import type { Status } from '../shared/messages';
import type { MatchRule } from '../shared/url-match';
import { send } from './send';
import { useAction } from './use-action';

interface Props {
  status: Status;
  onChange: () => Promise<void>;
}

/** Idle lock and match rule. */
export function Preferences({ status, onChange }: Props) {
  const [minutes, setMinutes] = useState(String(status.idleMinutes));
  const [rule, setRule] = useState<MatchRule>(status.matchRule);
  const { error, run } = useAction();
  const save = () =>
    void run(async () => {
      await send({ type: 'settings', idleMinutes: Number(minutes), matchRule: rule });
      await onChange();
    });
  return (
    <details className="preferences">
      <summary>Preferences</summary>
      <label htmlFor="idle">Lock after idle (minutes)</label>
      <input id="idle" type="number" min={1} max={1440} value={minutes} onChange={(e) => setMinutes(e.target.value)} />
      <label htmlFor="rule">Match sites by</label>
      <select id="rule" value={rule} onChange={(e) => setRule(e.target.value as MatchRule)}>
        {RULES.map((name) => (
          <option key={name} value={name}>
            {RULE_LABELS[name]}
          </option>
        ))}
      </select>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <button type="button" onClick={save}>
        Save preferences
      </button>
    </details>
  );
}

const RULE_LABELS: Record<MatchRule, string> = {
  'base-domain': 'Base domain',
  host: 'Host and port',
  'starts-with': 'Starts with (same origin)',
  exact: 'Exact address',
  regex: 'Regular expression',
  never: 'Never',
};

/**
 * The rules in the order offered. Taken from the labels (which name every rule, or the type
 * check fails) rather than from url-match, whose import brings the contract's schemas and the
 * Public Suffix List into the popup's first paint.
 */
const RULES = Object.keys(RULE_LABELS) as MatchRule[];
