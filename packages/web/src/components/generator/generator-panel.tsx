import { useEffect, useEffectEvent, useId, useState, type ReactNode } from 'react';
import { buttonPrimary, buttonSecondary } from '@/components/ui/styles';
import { entropyBits, generate, settingsProblem, type GeneratorSettings } from '@/lib/generator';
import { logFailure } from '@/lib/log';
import { GeneratorOptions } from './generator-options';
import { StrengthMeter } from './strength-meter';
import { copyWithClear } from '@/lib/clipboard';

export interface GeneratorPanelProps {
  settings: GeneratorSettings;
  onSettingsChange(settings: GeneratorSettings): void;
  /** Shows "Use this password", which hands the value over (the Add/Edit dialog fills its field). */
  onUse?(value: string): void;
  /** Every value as it appears: the first, a Regenerate, an option changed (the Add/Edit dialog fills its field with each). */
  onGenerated?(value: string): void;
  /** After a value was copied (the page records it in the history). */
  onCopied?(value: string): void;
  /** How to copy; the clipboard, cleared after a while, unless given. */
  copy?(text: string): Promise<void>;
  /** Shown under the value instead of the strength meter, e.g. nothing in tests of other things. */
  renderStrength?(password: string): ReactNode;
}

/** The clipboard, cleared after the person's delay if it still holds this value (lib/clipboard.ts). */
const defaultCopy = (text: string) => copyWithClear(text);

type Generated = { status: 'ready'; value: string } | { status: 'loading' } | { status: 'failed'; message: string };

/**
 * The password generator: its options, the generated value in a monospace box, regenerate,
 * copy, its entropy and strength. A new value is made whenever an option changes; nothing
 * is kept or sent from here (the page and the dialog decide what to remember).
 */
export function GeneratorPanel({
  settings,
  onSettingsChange,
  onUse,
  onGenerated,
  onCopied,
  copy = defaultCopy,
  renderStrength,
}: GeneratorPanelProps) {
  const labelId = useId();
  const [generated, setGenerated] = useState<Generated>({ status: 'loading' });
  const [round, setRound] = useState(0);
  const [copyNote, setCopyNote] = useState<string | null>(null);
  const problem = settingsProblem(settings);
  const settingsKey = JSON.stringify(settings);
  // An effect event: the parent's latest callback, which never makes a new value by changing.
  const handOver = useEffectEvent((value: string) => onGenerated?.(value));

  useEffect(() => {
    if (problem) return;
    let live = true;
    const current = JSON.parse(settingsKey) as GeneratorSettings;
    generate(current).then(
      (value) => {
        if (!live) return;
        setGenerated({ status: 'ready', value });
        handOver(value);
      },
      (error: unknown) => {
        logFailure('Generating a passphrase', error);
        if (live)
          setGenerated({ status: 'failed', message: 'The wordlist could not be loaded. Check your connection and try again.' });
      },
    );
    return () => {
      live = false;
    };
  }, [settingsKey, round, problem]);

  const value = !problem && generated.status === 'ready' ? generated.value : null;
  const bits = Math.floor(entropyBits(settings));

  const onCopy = async () => {
    if (value === null) return;
    try {
      await copy(value);
      setCopyNote('Copied.');
      onCopied?.(value);
    } catch (error) {
      logFailure('Copying a generated password', error);
      setCopyNote('Could not copy: the clipboard is not available here.');
    }
  };

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-2">
        <p className="text-sm font-medium text-slate-300" id={labelId}>
          Generated {settings.mode === 'password' ? 'password' : 'passphrase'}
        </p>
        <output
          aria-labelledby={labelId}
          data-testid="generated-value"
          className="min-h-12 rounded-lg border border-slate-700 bg-slate-950 px-3 py-2 font-mono text-lg break-all text-white"
        >
          {problem ? '' : generated.status === 'failed' ? generated.message : (value ?? 'Generating...')}
        </output>
        <p className="text-sm text-slate-300">
          Entropy: <span className="font-semibold text-white">{problem ? 0 : bits} bits</span>
        </p>
        {value !== null && (renderStrength ? renderStrength(value) : <StrengthMeter password={value} />)}
      </div>
      <div className="flex flex-wrap gap-2">
        <button type="button" className={buttonSecondary} onClick={() => setRound((n) => n + 1)} disabled={problem !== null}>
          Regenerate
        </button>
        <button type="button" className={buttonSecondary} onClick={() => void onCopy()} disabled={value === null}>
          Copy
        </button>
        {onUse && (
          <button
            type="button"
            className={buttonPrimary}
            onClick={() => value !== null && onUse(value)}
            disabled={value === null}
          >
            Use this password
          </button>
        )}
      </div>
      <p role="status" className="min-h-5 text-sm text-slate-300">
        {copyNote}
      </p>
      {problem && (
        <p role="alert" className="text-sm text-amber-300">
          {problem}
        </p>
      )}
      <GeneratorOptions settings={settings} onChange={onSettingsChange} />
    </div>
  );
}
