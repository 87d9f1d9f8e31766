import { useEffect, useState } from 'react';
import { estimateStrength, STRENGTH_LABELS, type StrengthReport } from '@/lib/password-strength/strength';
import { logFailure } from '@/lib/log';

/** Typing pauses this long before zxcvbn runs: each keystroke stays a few microseconds of work. */
export const STRENGTH_DEBOUNCE_MS = 150;

const BAR_COLOURS = ['bg-red-500', 'bg-orange-500', 'bg-yellow-400', 'bg-lime-400', 'bg-emerald-400'] as const;

/**
 * The strength of `password` as zxcvbn sees it: a bar, a label, the time to crack it offline
 * and zxcvbn's feedback in words. zxcvbn loads on first use (its own chunk) and runs once
 * typing pauses. `userInputs` (user name, email...) count as words an attacker knows.
 * The text is in a polite live region: a screen reader hears the verdict when typing stops.
 */
export function StrengthMeter({ password, userInputs = [] }: { password: string; userInputs?: readonly string[] }) {
  const [measured, setMeasured] = useState<{ password: string; report: StrengthReport } | null>(null);
  const inputsKey = userInputs.join('\n');

  useEffect(() => {
    if (password === '') return;
    let live = true;
    const timer = setTimeout(() => {
      estimateStrength(password, inputsKey === '' ? [] : inputsKey.split('\n')).then(
        (report) => {
          if (live) setMeasured({ password, report });
        },
        (error: unknown) => logFailure('Measuring the password strength', error),
      );
    }, STRENGTH_DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [password, inputsKey]);

  // A verdict on a password no longer in the field is not shown (nor one for an empty field).
  const report = password !== '' && measured?.password === password ? measured.report : null;
  const filled = report ? report.score + 1 : 0;
  return (
    <div className="flex flex-col gap-1" data-strength-score={report?.score}>
      <div className="flex gap-1" aria-hidden="true">
        {BAR_COLOURS.map((colour, index) => (
          <span key={colour} className={`h-1.5 flex-1 rounded-full ${index < filled ? colour : 'bg-slate-700'}`} />
        ))}
      </div>
      <div aria-live="polite" className="min-h-5 text-sm text-slate-300">
        {report && (
          <>
            <p>
              <span className="font-medium text-white">Strength: {STRENGTH_LABELS[report.score]}</span>
              <span className="text-slate-400"> · time to crack offline: {report.crackTime}</span>
            </p>
            {(report.warning !== null || report.suggestions.length > 0) && (
              <ul className="mt-1 list-disc pl-5 text-slate-300">
                {report.warning !== null && <li>{report.warning}</li>}
                {report.suggestions.map((suggestion) => (
                  <li key={suggestion}>{suggestion}</li>
                ))}
              </ul>
            )}
          </>
        )}
      </div>
    </div>
  );
}
