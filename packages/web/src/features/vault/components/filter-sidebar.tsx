import { memo, useEffect, useRef, useState, type ReactNode } from 'react';
import type { EntryFilter, FolderNode, TagCount } from '../lib/entry-filter';
import type { ActionResult, OpenFolder } from '@lockit/client-core';
import { DeleteFolderDialog, RenameFolderDialog } from './folder-dialogs';
import { FolderMenu } from './folder-menu';

/** How many entries each filter of the column shows (trash excluded, except for Trash). */
export interface FilterCounts {
  all: number;
  favorites: number;
  byType: Record<'login' | 'note' | 'card' | 'identity', number>;
  /** Entries directly in each folder; a folder's count adds its subfolders (subtreeIds). */
  byFolder: ReadonlyMap<string | null, number>;
  trash: number;
}

export const TYPE_FILTERS = [
  { type: 'login', label: 'Logins' },
  { type: 'note', label: 'Secure notes' },
  { type: 'card', label: 'Cards' },
  { type: 'identity', label: 'Identities' },
] as const;

/** The heading of the list for a filter (also the phone's menu button text). */
export function filterLabel(filter: EntryFilter, folderNameOf: (id: string) => string | undefined): string {
  switch (filter.kind) {
    case 'all':
      return 'All entries';
    case 'favorites':
      return 'Favourites';
    case 'type':
      return TYPE_FILTERS.find((item) => item.type === filter.type)?.label ?? 'Entries';
    case 'folder':
      return filter.folderId === null ? 'No folder' : (folderNameOf(filter.folderId) ?? 'Folder');
    case 'tag':
      return `#${filter.tag}`;
    case 'trash':
      return 'Trash';
  }
}

export function sameFilter(a: EntryFilter, b: EntryFilter): boolean {
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case 'type':
      return a.type === (b as typeof a).type;
    case 'folder':
      return a.folderId === (b as typeof a).folderId && a.includeSubfolders === (b as typeof a).includeSubfolders;
    case 'tag':
      return a.tag === (b as typeof a).tag;
    default:
      return true;
  }
}

interface FilterSidebarProps {
  filter: EntryFilter;
  onSelect: (filter: EntryFilter) => void;
  counts: FilterCounts;
  folders: readonly FolderNode[];
  tags: readonly TagCount[];
  /** Opens the New folder dialog. */
  onNewFolder: () => void;
  /** Phones: whether the drawer is open (the column is always shown from 768 px up). */
  drawerOpen: boolean;
  onCloseDrawer: () => void;
  /**
   * Rename and Delete for each folder (a "…" menu beside it) need all three: the folders as
   * saved (with their revisions) and the two actions (useEntryActions' renameFolder and
   * deleteFolder). Without them the folders have no menu.
   */
  openFolders?: readonly OpenFolder[];
  onRenameFolder?: (folder: OpenFolder, name: string) => Promise<ActionResult>;
  onDeleteFolder?: (folder: OpenFolder) => Promise<ActionResult>;
}

type FolderDialog = { kind: 'rename'; node: FolderNode } | { kind: 'delete'; node: FolderNode; folder: OpenFolder } | null;

const itemButton = [
  'flex w-full items-center gap-2 rounded-lg px-3 py-1.5 text-left text-sm text-slate-300 transition',
  'hover:bg-slate-800 hover:text-white focus-visible:outline focus-visible:outline-2 focus-visible:outline-cyan-400',
  'aria-[current=true]:bg-slate-800 aria-[current=true]:font-semibold aria-[current=true]:text-white',
].join(' ');
const sectionHeading = 'px-3 pt-4 pb-1 text-xs font-semibold tracking-wide text-slate-400 uppercase';

/**
 * The filter column: All, Favourites, each type, the folder tree, the tags and Trash, each
 * with how many entries it shows. From 768 px up it is a column beside the list; on a phone
 * it is a drawer opened by the list's Filters button, closed by choosing a filter, by
 * Escape or by tapping outside it.
 */
export const FilterSidebar = memo(function FilterSidebar({
  filter,
  onSelect,
  counts,
  folders,
  tags,
  onNewFolder,
  drawerOpen,
  onCloseDrawer,
  openFolders,
  onRenameFolder,
  onDeleteFolder,
}: FilterSidebarProps) {
  const navRef = useRef<HTMLElement>(null);
  const newFolderRef = useRef<HTMLButtonElement>(null);
  const [folderDialog, setFolderDialog] = useState<FolderDialog>(null);
  const manage = openFolders && onRenameFolder && onDeleteFolder ? { openFolders, onRenameFolder, onDeleteFolder } : null;
  // The drawer takes focus when it opens and gives it up to Escape.
  useEffect(() => {
    const nav = navRef.current;
    if (!drawerOpen || !nav) return;
    nav.querySelector<HTMLElement>('[aria-current="true"]')?.focus();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.stopPropagation();
      onCloseDrawer();
    };
    nav.addEventListener('keydown', onKeyDown);
    return () => nav.removeEventListener('keydown', onKeyDown);
  }, [drawerOpen, onCloseDrawer]);

  const item = (target: EntryFilter, label: ReactNode, count: number | null, depth = 0) => (
    <button
      type="button"
      className={itemButton}
      style={depth > 0 ? { paddingLeft: `${0.75 + depth * 0.875}rem` } : undefined}
      aria-current={sameFilter(filter, target) ? 'true' : undefined}
      onClick={() => onSelect(target)}
    >
      <span className="min-w-0 flex-1 truncate">{label}</span>
      {/* The space makes the name "Logins 12" rather than "Logins12"; flex layout drops it. */}
      {count !== null && (
        <>
          {' '}
          <span className="shrink-0 text-xs text-slate-400 tabular-nums">{count}</span>
        </>
      )}
    </button>
  );

  const folderMenu = (node: FolderNode) => {
    if (!manage) return null;
    const folder = node.id === null ? undefined : manage.openFolders.find((candidate) => candidate.id === node.id);
    return (
      <FolderMenu
        path={node.path}
        onRename={() => setFolderDialog({ kind: 'rename', node })}
        onDelete={folder ? () => setFolderDialog({ kind: 'delete', node, folder }) : undefined}
      />
    );
  };

  const folderItems = (nodes: readonly FolderNode[], depth: number): ReactNode =>
    nodes.map((node) => {
      const count = node.subtreeIds.reduce((sum, id) => sum + (counts.byFolder.get(id) ?? 0), 0);
      return (
        <li key={`${node.path}:${node.id ?? ''}`}>
          <div className="flex items-center gap-1">
            {node.id === null ? (
              // A folder only implied by a deeper one's name ("Work" of "Work/Banking") holds no entries of its own.
              <span
                className="block min-w-0 flex-1 truncate px-3 py-1.5 text-sm text-slate-400"
                style={{ paddingLeft: `${0.75 + depth * 0.875}rem` }}
              >
                {node.name}
              </span>
            ) : (
              <div className="min-w-0 flex-1">
                {item({ kind: 'folder', folderId: node.id, includeSubfolders: true }, node.name, count, depth)}
              </div>
            )}
            {folderMenu(node)}
          </div>
          {node.children.length > 0 && <ul aria-label={`Folders in ${node.name}`}>{folderItems(node.children, depth + 1)}</ul>}
        </li>
      );
    });

  const closeFolderDialog = () => setFolderDialog(null);
  /** Focus on the "…" button of the folder under its new path (the tree made it anew), else on New folder. */
  const focusFolderMenu = (path: string | null) =>
    requestAnimationFrame(() => {
      const toggle =
        path === null
          ? null
          : navRef.current?.querySelector<HTMLElement>(`[aria-label="${CSS.escape(`Folder actions: ${path}`)}"]`);
      (toggle ?? newFolderRef.current)?.focus();
    });
  const folderRenamed = (path: string) => {
    setFolderDialog(null);
    focusFolderMenu(path);
  };
  const folderDeleted = (folder: OpenFolder) => {
    setFolderDialog(null);
    // The list no longer shows a folder that is gone; its entries are under All (and No folder).
    if (filter.kind === 'folder' && filter.folderId === folder.id) onSelect({ kind: 'all' });
    // The "…" button that opened the dialog went with the folder.
    focusFolderMenu(null);
  };

  return (
    <>
      {drawerOpen && (
        <button
          type="button"
          aria-label="Close filters"
          tabIndex={-1}
          className="fixed inset-0 z-40 bg-slate-950/70 md:hidden"
          onClick={onCloseDrawer}
        />
      )}
      <nav
        ref={navRef}
        id="vault-filters"
        aria-label="Filters"
        data-drawer={drawerOpen ? 'open' : 'closed'}
        className={
          drawerOpen
            ? 'fixed inset-y-0 left-0 z-50 w-72 max-w-[85vw] overflow-y-auto border-r border-slate-800 bg-slate-900 p-3 shadow-2xl md:static md:z-auto md:w-auto md:border-0 md:bg-transparent md:p-0 md:shadow-none'
            : 'hidden md:block'
        }
      >
        <ul>
          <li>{item({ kind: 'all' }, 'All entries', counts.all)}</li>
          <li>{item({ kind: 'favorites' }, 'Favourites', counts.favorites)}</li>
        </ul>
        <h2 className={sectionHeading}>Types</h2>
        <ul>
          {TYPE_FILTERS.map(({ type, label }) => (
            <li key={type}>{item({ kind: 'type', type }, label, counts.byType[type])}</li>
          ))}
        </ul>
        <div className="flex items-center justify-between pr-1">
          <h2 className={sectionHeading}>Folders</h2>
          <button
            ref={newFolderRef}
            type="button"
            className="mt-3 rounded px-2 py-0.5 text-xs text-cyan-300 hover:bg-slate-800 focus-visible:outline focus-visible:outline-2 focus-visible:outline-cyan-400"
            onClick={onNewFolder}
          >
            New folder
          </button>
        </div>
        <ul>
          {folderItems(folders, 0)}
          {folders.length > 0 && (
            <li>
              {item({ kind: 'folder', folderId: null, includeSubfolders: false }, 'No folder', counts.byFolder.get(null) ?? 0)}
            </li>
          )}
        </ul>
        {tags.length > 0 && (
          <>
            <h2 className={sectionHeading}>Tags</h2>
            <ul>
              {tags.map(({ tag, count }) => (
                <li key={tag}>{item({ kind: 'tag', tag }, `#${tag}`, count)}</li>
              ))}
            </ul>
          </>
        )}
        <ul className="mt-4 border-t border-slate-800 pt-2">
          <li>{item({ kind: 'trash' }, 'Trash', counts.trash)}</li>
        </ul>
      </nav>
      {manage && folderDialog?.kind === 'rename' && (
        <RenameFolderDialog
          node={folderDialog.node}
          openFolders={manage.openFolders}
          rename={manage.onRenameFolder}
          onRenamed={folderRenamed}
          onClose={closeFolderDialog}
        />
      )}
      {manage && folderDialog?.kind === 'delete' && (
        <DeleteFolderDialog
          node={folderDialog.node}
          folder={folderDialog.folder}
          entryCount={counts.byFolder.get(folderDialog.folder.id) ?? 0}
          remove={manage.onDeleteFolder}
          onDeleted={() => folderDeleted(folderDialog.folder)}
          onClose={closeFolderDialog}
        />
      )}
    </>
  );
});
