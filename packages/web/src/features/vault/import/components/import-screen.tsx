import { ImportPasswordError, type ImportFile, type ImportFormatId, type ParseResult } from '@lockit/transfer';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { PasswordInput } from '@/components/ui/password-input';
import { buttonPrimary, buttonSecondary } from '@/components/ui/styles';
import { paths } from '@/config/paths';
import { serverMessageOf } from '@/lib/api-errors';
import { useKeyring } from '@/lib/keyring-context';
import { useVaultEntries } from '../../hooks/use-vault-entries';
import { writeThrough } from '@lockit/client-core';
import { vaultIntegrityOf } from '@/lib/vault-integrity-of';
import { undoImport } from '../api/undo-import';
import { importTag } from '../lib/import-tag';
import { planImport, type DuplicateChoice, type ImportPlan } from '../lib/import-plan';
import {
  loadImportFormats,
  type CsvMapping,
  type CsvPreview,
  type FormatOption,
  type ImportFormats,
} from '../lib/import-formats';
import { forgetImport, packIds, readRecentImports, rememberImport, unpackIds, type RecentImport } from '../lib/recent-imports';
import { runImport, type ImportOutcome, type ImportProgress } from '../lib/run-import';
import { CsvMappingForm } from './csv-mapping-form';
import { FilePicker } from './file-picker';
import { KeyFileInput } from './key-file-input';
import { ImportPreview } from './import-preview';
import { RecentImports } from './recent-imports';

type Step =
  | { kind: 'pick' }
  | {
      kind: 'choose';
      file: ImportFile;
      options: FormatOption[];
      format: ImportFormatId | '';
      needsPassword: boolean;
      csv: CsvPreview | null;
    }
  | { kind: 'reading'; fraction: number }
  | { kind: 'preview'; plan: ImportPlan; source: string; tag: string }
  | { kind: 'importing'; progress: ImportProgress }
  | { kind: 'done'; outcome: Extract<ImportOutcome, { ok: true }>; source: string; tag: string };

/** The vault filtered by one tag. */
export const vaultTagLink = (tag: string) => `${paths.vault}?tag=${encodeURIComponent(tag)}`;

/**
 * /vault/import, unlocked: pick a file, check its format (and password, or columns), see
 * the preview, import as one batch with a progress bar, undo (decisions 0036, 0037).
 */
export function ImportScreen({ vaultKey, account }: { vaultKey: CryptoKey; account: string }) {
  const { state, folders } = useVaultEntries(vaultKey);
  const keyring = useKeyring();
  const existing = state.status === 'ready' ? state.entries : null;
  const [step, setStep] = useState<Step>({ kind: 'pick' });
  const [error, setError] = useState('');
  const [password, setPassword] = useState('');
  const [keyFile, setKeyFile] = useState<Uint8Array | undefined>(undefined);
  const [mapping, setMapping] = useState<CsvMapping>({});
  const [all, setAll] = useState<DuplicateChoice>('skip');
  const [own, setOwn] = useState<Map<number, DuplicateChoice>>(new Map());
  const [recent, setRecent] = useState<RecentImport[]>(() => readRecentImports(account));
  const [undoing, setUndoing] = useState<string | null>(null);
  const formats = useRef<ImportFormats | null>(null);
  const formatId = useId();
  const status = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    if (error !== '') status.current?.focus();
  }, [error]);

  const registry = useCallback(async () => (formats.current ??= await loadImportFormats()), []);

  const pick = async (picked: File) => {
    setError('');
    setPassword('');
    setKeyFile(undefined);
    try {
      const file: ImportFile = { name: picked.name, bytes: new Uint8Array(await picked.arrayBuffer()) };
      const r = await registry();
      const format = r.detect(file) ?? '';
      setMapping({});
      setStep({ kind: 'choose', file, options: r.formats, format, needsPassword: false, csv: null });
      if (format === 'csv-mapped') showMapping(r, file);
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : 'The file could not be read.');
    }
  };

  const showMapping = (r: ImportFormats, file: ImportFile) => {
    try {
      const csv = r.previewCsv(file);
      setMapping(csv.suggested);
      setStep({ kind: 'choose', file, options: r.formats, format: 'csv-mapped', needsPassword: false, csv });
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : 'The file could not be read as CSV.');
    }
  };

  const read = async () => {
    if (step.kind !== 'choose' || step.format === '' || existing === null) return;
    const { file, format } = step;
    setError('');
    const r = await registry();
    const label = r.formats.find((f) => f.id === format)?.label ?? format;
    setStep({ kind: 'reading', fraction: 0 });
    try {
      const parsed: ParseResult = await r.parse(file, format, {
        password: password === '' ? undefined : password,
        keyFile: format === 'kdbx' ? keyFile : undefined,
        mapping: format === 'csv-mapped' ? mapping : undefined,
        onProgress: (fraction) => setStep({ kind: 'reading', fraction }),
      });
      const tag = importTag(label, new Date());
      const plan = await planImport(parsed, existing, tag);
      setAll('skip');
      setOwn(new Map());
      setStep({ kind: 'preview', plan, source: label, tag });
    } catch (caught) {
      const needsPassword = caught instanceof ImportPasswordError;
      setError(caught instanceof Error ? caught.message : 'The file could not be read.');
      setStep({ ...step, needsPassword: needsPassword || step.needsPassword });
    }
  };

  const start = async () => {
    if (step.kind !== 'preview') return;
    const { plan, source, tag } = step;
    setStep({ kind: 'importing', progress: { done: 0, total: 1 } });
    const outcome = await runImport({
      vaultKey,
      integrity: vaultIntegrityOf(keyring),
      plan,
      all,
      own,
      folders,
      onProgress: (progress) => setStep({ kind: 'importing', progress }),
    });
    if (outcome.ok) {
      if (outcome.created > 0) {
        setRecent(
          rememberImport(account, {
            batchId: outcome.batchId,
            count: outcome.created,
            ids: packIds(outcome.createdIds),
            source,
            tag,
            at: new Date().toISOString(),
          }),
        );
      }
      setStep({ kind: 'done', outcome, source, tag });
    } else {
      if (outcome.stranded > 0) {
        setRecent(
          rememberImport(account, {
            batchId: outcome.batchId,
            count: outcome.stranded,
            ids: packIds(outcome.strandedIds),
            source,
            tag,
            at: new Date().toISOString(),
          }),
        );
      }
      setError(outcome.message);
      setStep({ kind: 'preview', plan, source, tag });
    }
  };

  const undo = async (batch: RecentImport) => {
    setUndoing(batch.batchId);
    setError('');
    try {
      const integrity = vaultIntegrityOf(keyring);
      const ids = batch.ids === undefined ? null : unpackIds(batch.ids);
      if (integrity && ids === null) {
        setError(
          `This import cannot be undone from here: this browser no longer holds the list of its items. Filter the vault by the tag “${batch.tag}” to find and delete them.`,
        );
        return;
      }
      const trashedAt = Date.now();
      const result = await writeThrough(
        integrity,
        () => ({ undoImport: { ids: ids ?? [], trashedAt } }),
        (state) => undoImport(batch.batchId, state, trashedAt),
      );
      setRecent(forgetImport(account, batch.batchId));
      setError(
        `Import undone: ${result.purged} items removed${result.trashed > 0 ? `, ${result.trashed} changed since moved to Trash` : ''}.`,
      );
      if (step.kind === 'done' && step.outcome.batchId === batch.batchId) setStep({ kind: 'pick' });
    } catch (caught) {
      if (serverMessageOf(caught) === 'No import with that id.') setRecent(forgetImport(account, batch.batchId));
      setError(`The import could not be undone: ${serverMessageOf(caught) ?? 'the server could not be reached.'}`);
    } finally {
      setUndoing(null);
    }
  };

  return (
    <div className="mt-6 max-w-3xl">
      <p ref={status} tabIndex={-1} role="status" aria-live="polite" className="mb-4 text-slate-100 empty:hidden">
        {error}
      </p>
      {step.kind === 'pick' && <FilePicker onFile={(file) => void pick(file)} />}

      {step.kind === 'choose' && (
        <form
          className="flex flex-col gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            void read();
          }}
        >
          <p className="text-slate-200">File: {step.file.name}</p>
          <div className="flex flex-col gap-1">
            <label htmlFor={formatId} className="text-sm font-medium text-slate-300">
              Format
            </label>
            <select
              id={formatId}
              value={step.format}
              onChange={(event) => {
                const format = event.target.value as ImportFormatId | '';
                setStep({ ...step, format, csv: null });
                if (format === 'csv-mapped' && formats.current) showMapping(formats.current, step.file);
              }}
              className="rounded-lg border border-slate-700 bg-slate-800 px-3 py-2 text-white"
            >
              <option value="">Choose the format</option>
              {step.options.map((format) => (
                <option key={format.id} value={format.id}>
                  {format.label}
                </option>
              ))}
            </select>
          </div>
          {step.needsPassword && (
            <PasswordInput
              label="File password"
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              autoComplete="off"
            />
          )}
          {step.needsPassword && step.format === 'kdbx' && <KeyFileInput onKeyFile={setKeyFile} />}
          {step.format === 'csv-mapped' && step.csv && (
            <CsvMappingForm preview={step.csv} mapping={mapping} onChange={setMapping} />
          )}
          <div className="flex flex-wrap gap-3">
            <button type="submit" className={buttonPrimary} disabled={step.format === '' || existing === null}>
              {existing === null ? 'Loading your vault...' : 'Show preview'}
            </button>
            <button type="button" className={buttonSecondary} onClick={() => setStep({ kind: 'pick' })}>
              Choose another file
            </button>
          </div>
        </form>
      )}

      {step.kind === 'reading' && <Progress label="Reading the file" value={step.fraction} />}

      {step.kind === 'preview' && (
        <ImportPreview
          plan={step.plan}
          source={step.source}
          all={all}
          own={own}
          onAll={(choice) => {
            setAll(choice);
            setOwn(new Map());
          }}
          onOwn={(index, choice) => setOwn((held) => new Map(held).set(index, choice))}
          onImport={() => void start()}
          onCancel={() => setStep({ kind: 'pick' })}
        />
      )}

      {step.kind === 'importing' && <Progress label="Importing" value={step.progress.done / Math.max(1, step.progress.total)} />}

      {step.kind === 'done' && (
        <section aria-labelledby="import-done" className="flex flex-col gap-3">
          <h2 id="import-done" className="text-xl font-semibold text-white">
            Import complete
          </h2>
          <p className="text-slate-200">
            {step.outcome.created} items imported from {step.source}
            {step.outcome.updated > 0 ? `, ${step.outcome.updated} existing items updated` : ''}. They carry the tag &quot;
            {step.tag}
            &quot;.
            {step.outcome.files.attached + step.outcome.files.failures.length > 0 &&
              ` ${step.outcome.files.attached} ${step.outcome.files.attached === 1 ? 'file' : 'files'} attached.`}
          </p>
          {step.outcome.files.failures.length > 0 && (
            <section aria-labelledby="import-files-left" className="flex flex-col gap-1">
              <h3 id="import-files-left" className="font-semibold text-white">
                Files not attached
              </h3>
              <ul className="list-disc pl-5 text-sm text-slate-200">
                {step.outcome.files.failures.map((failure, i) => (
                  <li key={i}>
                    {failure.itemName}: {failure.message}
                  </li>
                ))}
              </ul>
            </section>
          )}
          {step.outcome.updateFailures.length > 0 && (
            <ul className="list-disc pl-5 text-sm text-slate-200">
              {step.outcome.updateFailures.map((failure, i) => (
                <li key={i}>
                  {failure.name} was not updated: {failure.message}
                </li>
              ))}
            </ul>
          )}
          <div className="flex flex-wrap gap-3">
            <Link to={vaultTagLink(step.tag)} className={buttonPrimary}>
              Show the imported items
            </Link>
            {step.outcome.created > 0 && (
              <button
                type="button"
                className={buttonSecondary}
                disabled={undoing !== null}
                onClick={() =>
                  void undo({
                    batchId: step.outcome.batchId,
                    count: step.outcome.created,
                    source: step.source,
                    tag: step.tag,
                    at: '',
                  })
                }
              >
                Undo import
              </button>
            )}
          </div>
        </section>
      )}

      <RecentImports imports={recent} busy={undoing} onUndo={(batch) => void undo(batch)} />
    </div>
  );
}

function Progress({ label, value }: { label: string; value: number }) {
  const percent = Math.round(Math.min(1, Math.max(0, value)) * 100);
  return (
    <div className="flex flex-col gap-2">
      <p className="text-slate-200">{label}...</p>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-3 w-full overflow-hidden rounded-full bg-slate-800"
      >
        <div className="h-full bg-cyan-500 transition-[width]" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}
