import { apiPaths } from '@lockit/contract';
import { useLayoutEffect, useState } from 'react';
import { fakeApi } from '@/testing/fake-api';
import { type PlainEntry } from '@/testing/vault-fixtures';
import { ConflictDialog } from '@/features/vault/components/conflict-dialog';
import { EntryFormDialog } from '@/features/vault/components/entry-form-dialog';
import { HistoryPanel } from '@/features/vault/components/history-panel';
import { type EntryDraft, type OpenEntry, type VaultEntry } from '@lockit/client-core';
import type { EntryActions } from '@/features/vault/lib/entry-action-types';
import { useEntryActions } from '@/features/vault/hooks/use-entry-actions';
import { useVaultEntries } from '@/features/vault/hooks/use-vault-entries';

/** What the harness exposes to the test: the hooks' live values. */
let live: { entries: VaultEntry[]; folders: ReturnType<typeof useVaultEntries>['folders']; actions: EntryActions } | null = null;

/**
 * A minimal screen around the data layer (the real one is vault-view.tsx): a list with Edit,
 * Trash and History per entry, the editor, the history panel and the conflict dialog. The
 * useEntryActions tests (features/vault/hooks/use-entry-actions-*.test.tsx) render it.
 */
export function Harness({ vaultKey }: { vaultKey: CryptoKey }) {
  const { state, folders, dispatch } = useVaultEntries(vaultKey);
  const actions = useEntryActions(vaultKey, dispatch);
  const [editing, setEditing] = useState<{ entry: OpenEntry; draft: EntryDraft } | null>(null);
  const [history, setHistory] = useState<OpenEntry | null>(null);
  const [result, setResult] = useState('');
  const entries = state.status === 'loading' ? [] : state.entries;
  // At commit, so the test sees the values of what is on screen.
  useLayoutEffect(() => {
    live = { entries, folders, actions };
  });
  // Gone with the screen: a test never reads the values of an earlier test's harness.
  useLayoutEffect(
    () => () => {
      live = null;
    },
    [],
  );
  const report = (outcome: { ok: boolean; message?: string }) => setResult(outcome.ok ? 'done' : (outcome.message ?? ''));
  return (
    <>
      <ul aria-label="Entries">
        {entries.map((entry) => {
          const name = entry.status === 'open' ? entry.serviceName : `damaged ${entry.id}`;
          return (
            <li key={entry.id} aria-label={name}>
              {entry.status === 'open' &&
                `${entry.serviceName} r${entry.revision} ${entry.format}${entry.deletedAt ? ' in Trash' : ''}`}
              {entry.status === 'open' && (
                <>
                  <button
                    type="button"
                    onClick={() => void actions.openDraft(entry).then((draft) => setEditing({ entry, draft }))}
                  >
                    Edit {name}
                  </button>
                  <button type="button" onClick={() => setHistory(entry)}>
                    History {name}
                  </button>
                </>
              )}
              <button type="button" onClick={() => void actions.trash(entry).then(report)}>
                Trash {name}
              </button>
            </li>
          );
        })}
      </ul>
      <p aria-label="Result">{result}</p>
      {editing && (
        <EntryFormDialog
          mode="edit"
          initial={editing.draft}
          folders={folders}
          onSubmit={async (draft) => {
            const outcome = await actions.save(editing.entry, draft);
            if (outcome.ok) setEditing(null);
            return outcome;
          }}
          onClose={() => setEditing(null)}
        />
      )}
      {history && <HistoryPanel entry={history} actions={actions} onClose={() => setHistory(null)} />}
      {actions.conflict && <ConflictDialog conflict={actions.conflict} folders={folders} />}
    </>
  );
}

export const GITHUB: PlainEntry = { serviceName: 'GitHub', username: 'alice', password: 'old-password', notes: 'first note' };
export const current = () => live!;
export const openEntryNamed = (name: string) =>
  current().entries.find((entry): entry is OpenEntry => entry.status === 'open' && entry.serviceName === name)!;
export const puts = (api: ReturnType<typeof fakeApi>) =>
  api.requests.filter((request) => request.method === 'PUT' && request.path !== apiPaths.vaultState);
