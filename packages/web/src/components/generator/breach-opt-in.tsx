import { BREACH_PRIVACY_SENTENCE } from '@/lib/password-strength/breach-check';

/**
 * The optional breach check of a new master password: off by default, said plainly, and
 * offered only when the server has a range API configured (`available`).
 */
export function BreachOptIn({
  available,
  checked,
  onChange,
}: {
  available: boolean;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  if (!available) return null;
  return (
    <div className="flex flex-col gap-1 text-sm">
      <label className="flex items-start gap-2 text-slate-200">
        <input type="checkbox" className="mt-1" checked={checked} onChange={(event) => onChange(event.target.checked)} />
        <span>Also check this password against known data breaches (optional, off unless you tick it)</span>
      </label>
      <p className="text-slate-400">{BREACH_PRIVACY_SENTENCE}</p>
    </div>
  );
}
