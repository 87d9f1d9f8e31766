import { GeneratorPanel } from '@/components/generator/generator-panel';
import { useAccountGeneratorSettings } from '@/components/generator/use-generator-settings';
import { useGeneratorHistory } from '@/components/generator/use-generator-history';
import { copyWithClear } from '@/lib/clipboard';

/**
 * The generator inside the Add/Edit dialog: the account's saved settings, and every value
 * used or copied recorded in the account's generator history with the item's name, so a
 * password whose save then fails is still there. "Use this password" fills the field.
 */
export function EntryPasswordGenerator({ itemName, onUse, id }: { itemName: string; onUse(value: string): void; id: string }) {
  const { settings, setSettings, saveProblem } = useAccountGeneratorSettings();
  const history = useGeneratorHistory();
  const record = (value: string) => void history.record(value, itemName.trim() || undefined);
  return (
    <div id={id} role="group" aria-label="Password generator" className="rounded-lg border border-slate-700 bg-slate-900 p-3">
      <GeneratorPanel
        settings={settings}
        onSettingsChange={setSettings}
        copy={(text) => copyWithClear(text)}
        onCopied={record}
        onUse={(value) => {
          record(value);
          onUse(value);
        }}
      />
      {saveProblem && <p className="mt-2 text-sm text-amber-300">Generator settings: {saveProblem}</p>}
    </div>
  );
}
