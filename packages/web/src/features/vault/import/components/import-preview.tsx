import { useId } from 'react';
import { buttonPrimary, buttonSecondary } from '@/components/ui/styles';
import { countPlan, type DuplicateChoice, type ImportPlan } from '../lib/import-plan';

const TYPE_WORDS = { login: 'Logins', note: 'Secure notes', card: 'Cards', identity: 'Identities' } as const;
const CHOICES: Array<{ value: DuplicateChoice; label: string }> = [
  { value: 'skip', label: 'Skip' },
  { value: 'keep-both', label: 'Keep both' },
  { value: 'update', label: 'Update the existing item' },
];
const SHOWN = 200;

/**
 * What the import will do, before anything is saved: items created by type, items that look
 * like ones already in the vault (with a choice for all and for each), rows skipped with
 * their reason and line, and the custom fields items will carry.
 */
export function ImportPreview({
  plan,
  source,
  all,
  own,
  onAll,
  onOwn,
  onImport,
  onCancel,
}: {
  plan: ImportPlan;
  source: string;
  all: DuplicateChoice;
  own: ReadonlyMap<number, DuplicateChoice>;
  onAll: (choice: DuplicateChoice) => void;
  onOwn: (index: number, choice: DuplicateChoice) => void;
  onImport: () => void;
  onCancel: () => void;
}) {
  const id = useId();
  const counts = countPlan(plan, all, own);
  const duplicates = plan.items.filter((planned) => planned.duplicateOf !== null);
  return (
    <section aria-labelledby={`${id}-title`} className="mt-6 flex flex-col gap-6">
      <h2 id={`${id}-title`} className="text-xl font-semibold text-white">
        Preview: {source}
      </h2>
      <dl aria-label="What will be imported" className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {(Object.keys(TYPE_WORDS) as Array<keyof typeof TYPE_WORDS>).map((type) => (
          <div key={type} className="rounded-lg border border-slate-700 p-3">
            <dt className="text-sm text-slate-300">{TYPE_WORDS[type]}</dt>
            <dd className="text-2xl font-bold text-white">{counts.create[type]}</dd>
          </div>
        ))}
      </dl>
      <p className="text-slate-200">
        {counts.createTotal} new items, {counts.update} updated, {counts.skipDuplicates} duplicates skipped, {counts.skipped} rows
        skipped.
        {counts.files > 0 && ` ${counts.files} attached ${counts.files === 1 ? 'file goes' : 'files go'} with the items.`}
      </p>

      {duplicates.length > 0 && (
        <section aria-labelledby={`${id}-dup`} className="flex flex-col gap-3">
          <h3 id={`${id}-dup`} className="font-semibold text-white">
            {duplicates.length} look like items already in your vault
          </h3>
          <p className="text-sm text-slate-300">
            Same site and user name. Updating keeps the old version in the item&apos;s history.
          </p>
          <label className="flex flex-wrap items-center gap-2 text-sm text-slate-200">
            For all of them:
            <select
              value={all}
              onChange={(event) => onAll(event.target.value as DuplicateChoice)}
              className="rounded-lg border border-slate-700 bg-slate-800 px-2 py-1 text-white"
            >
              {CHOICES.map((choice) => (
                <option key={choice.value} value={choice.value}>
                  {choice.label}
                </option>
              ))}
            </select>
          </label>
          <ul aria-label="Duplicates" className="flex flex-col gap-2">
            {duplicates.slice(0, SHOWN).map((planned) => (
              <li
                key={planned.index}
                className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-slate-700 p-2"
              >
                <span className="min-w-0 break-words text-slate-100">
                  {planned.draft.serviceName} <span className="text-slate-400">({planned.draft.username || 'no user name'})</span>
                </span>
                <select
                  aria-label={`For ${planned.draft.serviceName}`}
                  value={own.get(planned.index) ?? all}
                  onChange={(event) => onOwn(planned.index, event.target.value as DuplicateChoice)}
                  className="rounded-lg border border-slate-700 bg-slate-800 px-2 py-1 text-sm text-white"
                >
                  {CHOICES.map((choice) => (
                    <option key={choice.value} value={choice.value}>
                      {choice.label}
                    </option>
                  ))}
                </select>
              </li>
            ))}
          </ul>
          {duplicates.length > SHOWN && <p className="text-sm text-slate-300">…and {duplicates.length - SHOWN} more.</p>}
        </section>
      )}

      {plan.skipped.length > 0 && (
        <section aria-labelledby={`${id}-skip`}>
          <h3 id={`${id}-skip`} className="font-semibold text-white">
            {plan.skipped.length} skipped
          </h3>
          <ul aria-label="Skipped rows" className="mt-2 list-disc pl-5 text-sm text-slate-200">
            {plan.skipped.slice(0, SHOWN).map((skipped, i) => (
              <li key={i}>
                {skipped.line !== null && !skipped.reason.startsWith('Line') ? `Line ${skipped.line}: ` : ''}
                {skipped.reason}
              </li>
            ))}
          </ul>
        </section>
      )}

      {plan.warnings.length > 0 && (
        <section aria-labelledby={`${id}-check`}>
          <h3 id={`${id}-check`} className="font-semibold text-amber-300">
            {plan.warnings.length} to check
          </h3>
          <ul aria-label="Rows to check" className="mt-2 list-disc pl-5 text-sm text-slate-200">
            {plan.warnings.slice(0, SHOWN).map((warning, i) => (
              <li key={i}>{warning.reason}</li>
            ))}
          </ul>
          {plan.warnings.length > SHOWN && <p className="text-sm text-slate-300">…and {plan.warnings.length - SHOWN} more.</p>}
        </section>
      )}

      {counts.fields.length > 0 && (
        <section aria-labelledby={`${id}-fields`}>
          <h3 id={`${id}-fields`} className="font-semibold text-white">
            Kept as custom fields
          </h3>
          <ul aria-label="Custom fields" className="mt-2 flex flex-wrap gap-2 text-sm">
            {counts.fields.slice(0, 50).map((field) => (
              <li key={field.label} className="rounded-full border border-slate-600 px-3 py-1 text-slate-200">
                {field.label} ({field.count})
              </li>
            ))}
          </ul>
        </section>
      )}

      <div className="flex flex-wrap gap-3">
        <button type="button" className={buttonPrimary} onClick={onImport} disabled={counts.createTotal + counts.update === 0}>
          Import {counts.createTotal + counts.update} items
        </button>
        <button type="button" className={buttonSecondary} onClick={onCancel}>
          Choose another file
        </button>
      </div>
    </section>
  );
}
