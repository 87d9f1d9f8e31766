import { useId } from 'react';
import {
  PASSPHRASE_WORDS,
  PASSWORD_LENGTH,
  SEPARATORS,
  type GeneratorSettings,
  type PassphraseOptions,
  type PasswordOptions,
} from '@/lib/generator';
import { CheckboxField, NumberField } from './number-field';

const SEPARATOR_LABELS: Record<PassphraseOptions['separator'], string> = {
  '-': 'Dash (-)',
  ' ': 'Space',
  '.': 'Dot (.)',
  _: 'Underscore (_)',
  ',': 'Comma (,)',
  '': 'None',
};

/** The generator's choices: password or passphrase, and the options of each. */
export function GeneratorOptions({
  settings,
  onChange,
}: {
  settings: GeneratorSettings;
  onChange(settings: GeneratorSettings): void;
}) {
  const name = useId();
  const setPassword = (change: Partial<PasswordOptions>) =>
    onChange({ ...settings, password: { ...settings.password, ...change } });
  const setPassphrase = (change: Partial<PassphraseOptions>) =>
    onChange({ ...settings, passphrase: { ...settings.passphrase, ...change } });
  return (
    <div className="flex flex-col gap-4">
      <fieldset className="flex flex-wrap gap-4">
        <legend className="mb-2 text-sm font-medium text-slate-300">Generate</legend>
        {(['password', 'passphrase'] as const).map((mode) => (
          <label key={mode} className="flex items-center gap-2 text-sm text-slate-200">
            <input
              type="radio"
              name={name}
              value={mode}
              checked={settings.mode === mode}
              onChange={() => onChange({ ...settings, mode })}
              className="h-4 w-4 accent-cyan-500"
            />
            {mode === 'password' ? 'Random characters' : 'Passphrase'}
          </label>
        ))}
      </fieldset>
      {settings.mode === 'password' ? (
        <PasswordOptionsFields options={settings.password} onChange={setPassword} />
      ) : (
        <PassphraseOptionsFields options={settings.passphrase} onChange={setPassphrase} />
      )}
    </div>
  );
}

function PasswordOptionsFields({
  options,
  onChange,
}: {
  options: PasswordOptions;
  onChange(change: Partial<PasswordOptions>): void;
}) {
  const sliderId = useId();
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-col gap-1">
        <NumberField
          label="Length"
          value={options.length}
          min={PASSWORD_LENGTH.min}
          max={PASSWORD_LENGTH.max}
          onChange={(length) => onChange({ length })}
        />
        <input
          id={sliderId}
          type="range"
          aria-label="Length slider"
          min={PASSWORD_LENGTH.min}
          max={PASSWORD_LENGTH.max}
          value={options.length}
          onChange={(event) => onChange({ length: Number(event.target.value) })}
          className="w-full accent-cyan-500"
        />
      </div>
      <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
        <CheckboxField label="Upper case (A-Z)" checked={options.upper} onChange={(upper) => onChange({ upper })} />
        <CheckboxField label="Lower case (a-z)" checked={options.lower} onChange={(lower) => onChange({ lower })} />
        <CheckboxField label="Digits (0-9)" checked={options.digits} onChange={(digits) => onChange({ digits })} />
        <CheckboxField label="Symbols (!@#$...)" checked={options.symbols} onChange={(symbols) => onChange({ symbols })} />
      </div>
      <NumberField
        label="Minimum digits"
        value={options.minDigits}
        min={0}
        max={PASSWORD_LENGTH.max}
        disabled={!options.digits}
        onChange={(minDigits) => onChange({ minDigits })}
      />
      <NumberField
        label="Minimum symbols"
        value={options.minSymbols}
        min={0}
        max={PASSWORD_LENGTH.max}
        disabled={!options.symbols}
        onChange={(minSymbols) => onChange({ minSymbols })}
      />
      <CheckboxField
        label="Avoid look-alike characters (I, l, 1, O, 0)"
        checked={options.avoidAmbiguous}
        onChange={(avoidAmbiguous) => onChange({ avoidAmbiguous })}
      />
    </div>
  );
}

function PassphraseOptionsFields({
  options,
  onChange,
}: {
  options: PassphraseOptions;
  onChange(change: Partial<PassphraseOptions>): void;
}) {
  const separatorId = useId();
  return (
    <div className="flex flex-col gap-3">
      <NumberField
        label="Words"
        value={options.words}
        min={PASSPHRASE_WORDS.min}
        max={PASSPHRASE_WORDS.max}
        onChange={(words) => onChange({ words })}
      />
      <div className="flex items-center justify-between gap-3">
        <label htmlFor={separatorId} className="text-sm font-medium text-slate-300">
          Separator
        </label>
        <select
          id={separatorId}
          value={options.separator}
          onChange={(event) => onChange({ separator: event.target.value as PassphraseOptions['separator'] })}
          className="rounded-lg border border-slate-700 bg-slate-800 px-2 py-1 text-white outline-none focus:border-cyan-400"
        >
          {SEPARATORS.map((separator) => (
            <option key={separator} value={separator}>
              {SEPARATOR_LABELS[separator]}
            </option>
          ))}
        </select>
      </div>
      <CheckboxField label="Capitalise" checked={options.capitalise} onChange={(capitalise) => onChange({ capitalise })} />
      <CheckboxField
        label="Add a number"
        checked={options.includeNumber}
        onChange={(includeNumber) => onChange({ includeNumber })}
      />
      <p className="text-xs text-slate-400">
        Words from the{' '}
        <a href="https://www.eff.org/dice" className="text-cyan-300 underline" target="_blank" rel="noreferrer">
          EFF large wordlist
        </a>{' '}
        (CC BY 3.0 US).
      </p>
    </div>
  );
}
