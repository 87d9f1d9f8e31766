import type { EntryType } from '@lockit/contract';
import type { ParseResult, SkippedRecord, TransferItem } from '@lockit/transfer';
import type { OpenEntry, VaultEntry } from '@lockit/client-core';
import { duplicateOf, indexExisting } from './duplicates';
import { forEachInSlices } from './time-slices';
import { transferToDraft } from './transfer-to-draft';
import type { EntryDraft } from '@lockit/client-core';

/** One item of the file that can be imported. */
export interface PlannedItem {
  /** Its place in the file's list of items (0-based), for keys and decisions. */
  index: number;
  item: TransferItem;
  /** The vault's editor content, folder still unset (folders are made at import). */
  draft: EntryDraft;
  /** The folder path the file gives ("Work/Banking"), or null. */
  folder: string | null;
  /** The live login of the vault it looks like (same site and user name), or null. */
  duplicateOf: OpenEntry | null;
  /** Custom fields the file has, and values kept as custom fields for want of a place. */
  fieldLabels: string[];
}

export interface ImportPlan {
  format: ParseResult['format'];
  items: PlannedItem[];
  /** The file's skipped records and the items refused by the vault's caps, each with its reason. */
  skipped: SkippedRecord[];
  /** Records imported with a doubt (a CSV row not lined up with its header), each with what to check. */
  warnings: SkippedRecord[];
}

/** What to do with an item that looks like one already in the vault. */
export type DuplicateChoice = 'skip' | 'keep-both' | 'update';

/**
 * The preview of an import: each item of the parse turned into a draft and checked against
 * the vault's caps, and matched against the vault's live logins. Runs in slices (10,000
 * items never make one long task). Nothing is sealed or sent here.
 */
export async function planImport(
  parsed: ParseResult,
  existing: readonly VaultEntry[],
  tag: string,
  options: { signal?: AbortSignal; onProgress?: (done: number) => void } = {},
): Promise<ImportPlan> {
  const index = indexExisting(existing);
  const items: PlannedItem[] = [];
  const skipped: SkippedRecord[] = [...parsed.skipped];
  await forEachInSlices(
    parsed.items,
    (item, i) => {
      const outcome = transferToDraft(item, tag, null);
      if (!outcome.ok) {
        skipped.push({ line: null, reason: `Item ${i + 1} ("${item.name.slice(0, 60)}"): ${outcome.reason}` });
        return;
      }
      items.push({
        index: i,
        item,
        draft: outcome.draft,
        folder: item.folder,
        duplicateOf: duplicateOf(index, item),
        fieldLabels: [...item.fields.map((f) => f.label), ...outcome.keptAsFields],
      });
    },
    options,
  );
  return { format: parsed.format, items, skipped, warnings: [...(parsed.warnings ?? [])] };
}

/** The choice for one item: its own when set, else the one for all duplicates. */
export function choiceFor(
  planned: PlannedItem,
  all: DuplicateChoice,
  own: ReadonlyMap<number, DuplicateChoice>,
): DuplicateChoice | null {
  if (planned.duplicateOf === null) return null;
  return own.get(planned.index) ?? all;
}

export interface PlanCounts {
  /** Items to create, by type. */
  create: Record<EntryType, number>;
  createTotal: number;
  update: number;
  skipDuplicates: number;
  duplicates: number;
  skipped: number;
  /** Files the items to create or update carry, to be attached after them. */
  files: number;
  /** Each custom field label with how many items will carry it. */
  fields: Array<{ label: string; count: number }>;
}

/** What the import will do under the given choices: the preview's figures. */
export function countPlan(plan: ImportPlan, all: DuplicateChoice, own: ReadonlyMap<number, DuplicateChoice>): PlanCounts {
  const create: Record<EntryType, number> = { login: 0, note: 0, card: 0, identity: 0, sshKey: 0 };
  let update = 0;
  let skipDuplicates = 0;
  let duplicates = 0;
  let files = 0;
  const fields = new Map<string, number>();
  for (const planned of plan.items) {
    const choice = choiceFor(planned, all, own);
    if (choice !== null) duplicates += 1;
    if (choice === 'skip') {
      skipDuplicates += 1;
      continue;
    }
    if (choice === 'update') update += 1;
    else create[planned.draft.type] += 1;
    files += planned.item.attachments?.length ?? 0;
    for (const label of new Set(planned.fieldLabels)) fields.set(label, (fields.get(label) ?? 0) + 1);
  }
  const createTotal = Object.values(create).reduce((a, b) => a + b, 0);
  return {
    create,
    createTotal,
    update,
    skipDuplicates,
    duplicates,
    skipped: plan.skipped.length,
    files,
    fields: [...fields]
      .map(([label, count]) => ({ label, count }))
      .sort((a, b) => b.count - a.count || a.label.localeCompare(b.label)),
  };
}
