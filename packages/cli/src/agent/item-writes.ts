import { openDraft, type OpenEntry } from '@lockit/client-core';
import { AgentError } from './agent-error';
import { findItem } from './find-items';
import { generateSecret } from './generate';
import { applyChanges, checked, itemChangesOf, newDraft, withStdinSecrets, type ItemChanges } from './item-changes';
import type { LoadedVault } from './load-vault';
import { conflictError, type VaultWriter, type Written } from './vault-writer';

type Args = Record<string, unknown>;

/**
 * add, edit, rm and restore: an item found as `get` finds it, changed through the client
 * core's writes (VaultWriter). Each refusal (a bad part, an item not found or ambiguous, a move
 * the item's place does not allow) comes before anything is sent.
 */
export async function addItem(writer: VaultWriter, loaded: LoadedVault, args: Args): Promise<Written> {
  const type = String(args['type'] ?? 'login');
  const changes = await withGenerated(withStdinSecrets(itemChangesOf(args), type, args['stdin'], false), args);
  // Checked before a folder is made: a bad item must not leave a new folder behind.
  newDraft(type, changes, null);
  return writer.write(loaded, async () => {
    const folderId = changes.folder ? await writer.folderId(loaded, changes.folder) : null;
    const draft = newDraft(type, changes, folderId);
    const saved = await writer.entries.add(draft);
    return writer.settle(saved.wire);
  });
}

export async function editItem(writer: VaultWriter, loaded: LoadedVault, args: Args): Promise<Written> {
  const entry = findItem(loaded, text(args, 'item'));
  const changes = await withGenerated(withStdinSecrets(itemChangesOf(args), entry.type, args['stdin'], true), args);
  if (!changesSomething(changes)) {
    throw new AgentError('usage', 'Nothing to change: give at least one new value (see lockit edit --help).');
  }
  const revision = basedOn(args, entry);
  const current = await openDraft(writer.vault.vaultKey, entry).catch(() => {
    throw new AgentError('integrity', `The item "${entry.serviceName}" could not be decrypted; it is not changed.`);
  });
  // Parts that do not fit the item's type, or values past the caps, are refused before anything is sent.
  checked(applyChanges(current, changes, undefined));
  return writer.write(loaded, async () => {
    const folderId =
      changes.folder === undefined ? undefined : changes.folder ? await writer.folderId(loaded, changes.folder) : null;
    const draft = applyChanges(current, changes, folderId);
    const result = await writer.entries.update(entry.id, revision, draft);
    if (result.kind === 'conflict') throw conflictError('saved', entry.serviceName, result.current, revision);
    return writer.settle(result.wire);
  });
}

/** To Trash; with `permanent`, an item already in Trash is deleted for good. */
export async function removeItem(
  writer: VaultWriter,
  loaded: LoadedVault,
  args: Args,
): Promise<Written | { id: string; purged: true }> {
  const typed = text(args, 'item');
  if (args['permanent'] === true) {
    const entry = inTrash(loaded, typed, 'lockit rm (without --permanent) moves it to Trash first');
    const revision = basedOn(args, entry);
    return writer.write(loaded, async () => {
      const result = await writer.entries.purge(entry.id, revision);
      if (result.kind === 'conflict') throw conflictError('deleted', entry.serviceName, result.current, revision);
      if (result.kind === 'gone') throw new AgentError('notFound', `"${entry.serviceName}" is no longer on the server.`);
      return { id: entry.id, purged: true as const };
    });
  }
  const entry = findItem(loaded, typed);
  const revision = basedOn(args, entry);
  return writer.write(loaded, async () => {
    const result = await writer.entries.trash(entry.id, revision);
    if (result.kind === 'conflict') throw conflictError('moved to Trash', entry.serviceName, result.current, revision);
    if (result.kind === 'gone') throw new AgentError('notFound', `"${entry.serviceName}" is no longer on the server.`);
    return writer.settle(result.wire);
  });
}

export async function restoreItem(writer: VaultWriter, loaded: LoadedVault, args: Args): Promise<Written> {
  const entry = inTrash(loaded, text(args, 'item'), 'it is not in Trash');
  return writer.write(loaded, async () => {
    const result = await writer.entries.restore(entry.id, entry.revision);
    if (result.kind === 'conflict') throw conflictError('restored', entry.serviceName, result.current, entry.revision);
    return writer.settle(result.wire);
  });
}

/** An item in Trash; a live item of that name is refused with `why`, not taken for another. */
function inTrash(loaded: LoadedVault, typed: string, why: string): OpenEntry {
  try {
    return findItem(loaded, typed, { trash: true });
  } catch (error) {
    if (!(error instanceof AgentError) || error.code !== 'notFound') throw error;
    let live: OpenEntry | null = null;
    try {
      live = findItem(loaded, typed);
    } catch {
      throw error;
    }
    throw new AgentError('usage', `"${live.serviceName}" is not in Trash: ${why}.`);
  }
}

/**
 * The revision a write is based on: the one just fetched, or the one the person names with
 * --revision (a script that read the item earlier and must not overwrite a newer version).
 */
function basedOn(args: Args, entry: OpenEntry): number {
  if (args['revision'] === undefined) return entry.revision;
  const revision = Number(args['revision']);
  if (!Number.isInteger(revision) || revision < 1) throw new AgentError('usage', '--revision is a whole number from 1.');
  return revision;
}

/** The password from the generator when asked for (its options checked as `lockit generate`'s). */
async function withGenerated(changes: ItemChanges, args: Args): Promise<ItemChanges> {
  const options = args['generate'];
  if (options === undefined) return changes;
  if (typeof options !== 'object' || options === null) throw new AgentError('usage', 'generate holds the generator options.');
  if (changes.secrets?.password !== undefined) throw new AgentError('usage', 'Give a password or --generate, not both.');
  const { value } = await generateSecret(options as Args);
  return { ...changes, secrets: { ...changes.secrets, password: value } };
}

function changesSomething(changes: ItemChanges): boolean {
  return Object.values(changes).some(
    (value) => value !== undefined && (typeof value !== 'object' || Array.isArray(value) || Object.keys(value).length > 0),
  );
}

function text(args: Args, name: string): string {
  const value = args[name];
  if (typeof value !== 'string' || value === '') throw new AgentError('usage', `Missing ${name}.`);
  return value;
}
