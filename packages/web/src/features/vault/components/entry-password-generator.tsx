import { useRef } from 'react';
import { GeneratorPanel } from '@/components/generator/generator-panel';
import { useAccountGeneratorSettings } from '@/components/generator/use-generator-settings';
import { useGeneratorHistory } from '@/components/generator/use-generator-history';
import { copyWithClear } from '@/lib/clipboard';

/**
 * The generator inside the Add/Edit dialog: the account's saved settings, and every value it
 * puts in the field (`onFill`: as it appears, so one click on Generate fills the field, and
 * Regenerate or a changed option fills it again) recorded in the account's generator history
 * with the item's name, so a password whose save then fails is still there. A value the next
 * one replaced in the field leaves the history with it, unless it was copied: the history
 * holds what was used, not every value an option passed through. "Use this password" puts the
 * shown value back (after typing over it) and closes the generator.
 */
export function EntryPasswordGenerator({
  itemName,
  onFill,
  onUse,
  id,
}: {
  itemName: string;
  onFill(value: string): void;
  onUse(value: string): void;
  id: string;
}) {
  const { settings, setSettings, saveProblem } = useAccountGeneratorSettings();
  const history = useGeneratorHistory();
  /** The value last put in the field and recorded, while no copy of it was taken. */
  const inField = useRef<string | null>(null);
  const record = (value: string) => {
    if (value === inField.current) return;
    void history.record(value, itemName.trim() || undefined, inField.current ?? undefined);
    inField.current = value;
  };
  return (
    <div id={id} role="group" aria-label="Password generator" className="rounded-lg border border-slate-700 bg-slate-900 p-3">
      <GeneratorPanel
        settings={settings}
        onSettingsChange={setSettings}
        copy={(text) => copyWithClear(text)}
        onCopied={(value) => {
          void history.record(value, itemName.trim() || undefined);
          if (value === inField.current) inField.current = null;
        }}
        onGenerated={(value) => {
          record(value);
          onFill(value);
        }}
        onUse={(value) => {
          record(value);
          onUse(value);
        }}
      />
      {saveProblem && <p className="mt-2 text-sm text-amber-300">Generator settings: {saveProblem}</p>}
    </div>
  );
}
