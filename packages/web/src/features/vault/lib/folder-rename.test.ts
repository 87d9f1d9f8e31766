import { FOLDER_NAME_LIMIT } from '@lockit/contract';
import { describe, expect, it } from 'vitest';
import { folderTree, type FolderNode } from './entry-filter';
import { planFolderRename, runFolderRenames } from './folder-rename';
import type { OpenFolder } from '@lockit/client-core';

const folder = (id: string, name: string, revision = 1): OpenFolder => ({ id, name, revision });
const FOLDERS = [
  folder('a', 'Work'),
  folder('b', 'Work/Banking', 3),
  folder('c', 'Work/Banking/Cards'),
  folder('d', 'Workshop'),
  folder('e', 'Home'),
];

/** The node of the tree at `path` (the first, when two folders share it). */
function nodeAt(nodes: readonly FolderNode[], path: string): FolderNode {
  for (const node of nodes) {
    if (node.path === path) return node;
    if (path.startsWith(`${node.path}/`)) return nodeAt(node.children, path);
  }
  throw new Error(`no node ${path}`);
}

const renamesOf = (plan: ReturnType<typeof planFolderRename>) =>
  plan.ok ? plan.renames.map((rename) => [rename.folder.id, rename.name]) : plan.message;

describe('planFolderRename', () => {
  it('renames a parent and every folder inside it, parent first, but not a sibling that only starts alike', () => {
    const tree = folderTree(FOLDERS);
    expect(renamesOf(planFolderRename(nodeAt(tree, 'Work'), FOLDERS, ' Job '))).toEqual([
      ['a', 'Job'],
      ['b', 'Job/Banking'],
      ['c', 'Job/Banking/Cards'],
    ]);
  });

  it('moves a nested folder with what is inside it, keeping each folder’s revision', () => {
    const tree = folderTree(FOLDERS);
    const plan = planFolderRename(nodeAt(tree, 'Work/Banking'), FOLDERS, 'Home / Bank');
    expect(renamesOf(plan)).toEqual([
      ['b', 'Home/Bank'],
      ['c', 'Home/Bank/Cards'],
    ]);
    expect(plan.ok && plan.renames[0]!.folder.revision).toBe(3);
  });

  it('renames what a folder only implied by deeper names holds', () => {
    const folders = [folder('x', 'A/B'), folder('y', 'A/B/C')];
    expect(renamesOf(planFolderRename(nodeAt(folderTree(folders), 'A'), folders, 'Z'))).toEqual([
      ['x', 'Z/B'],
      ['y', 'Z/B/C'],
    ]);
  });

  it('renames only itself for the second of two folders of the same name (the first holds what is inside)', () => {
    const folders = [folder('1', 'Work'), folder('2', 'Work'), folder('3', 'Work/Banking')];
    const [first, second] = folderTree(folders);
    expect(renamesOf(planFolderRename(second!, folders, 'Old work'))).toEqual([['2', 'Old work']]);
    expect(renamesOf(planFolderRename(first!, folders, 'Job'))).toEqual([
      ['1', 'Job'],
      ['3', 'Job/Banking'],
    ]);
  });

  it('leaves out folders already under their new name and folders gone meanwhile (a retry)', () => {
    const tree = folderTree(FOLDERS);
    const now = [folder('a', 'Job', 2), folder('b', 'Work/Banking', 3)];
    expect(renamesOf(planFolderRename(nodeAt(tree, 'Work'), now, 'Job'))).toEqual([['b', 'Job/Banking']]);
    expect(renamesOf(planFolderRename(nodeAt(tree, 'Work'), FOLDERS, 'Work'))).toEqual([]);
  });

  it('refuses a bad name, or one that would make a folder inside it too long, before anything is saved', () => {
    const tree = folderTree(FOLDERS);
    expect(renamesOf(planFolderRename(nodeAt(tree, 'Work'), FOLDERS, 'Job//x'))).toBe(
      'A folder name cannot have an empty part between slashes.',
    );
    expect(renamesOf(planFolderRename(nodeAt(tree, 'Work'), FOLDERS, '   '))).toBe('Enter a folder name.');
    const long = 'x'.repeat(FOLDER_NAME_LIMIT - 4);
    expect(renamesOf(planFolderRename(nodeAt(tree, 'Work'), FOLDERS, long))).toMatch(
      new RegExp(`^The folder inside it would be named “${long}/Banking”, longer than ${FOLDER_NAME_LIMIT} characters`),
    );
  });
});

describe('runFolderRenames', () => {
  const renames = [
    { folder: folder('a', 'Work'), name: 'Job' },
    { folder: folder('b', 'Work/Banking'), name: 'Job/Banking' },
    { folder: folder('c', 'Work/Banking/Cards'), name: 'Job/Banking/Cards' },
  ];

  it('saves each in order and stops at the first failure, saying what was and was not renamed', async () => {
    const saved: string[] = [];
    const result = await runFolderRenames(renames, async (target, name) => {
      if (target.id === 'b') return { ok: false, message: 'Could not rename the folder: the server had a problem.' };
      saved.push(name);
      return { ok: true };
    });
    expect(saved).toEqual(['Job']);
    expect(result).toEqual({
      ok: false,
      message:
        'Could not rename the folder: the server had a problem. 1 of 3 folders were renamed; “Work/Banking” and the rest still have their old names. Rename again to finish.',
    });
  });

  it('passes the first failure on as it is when nothing was renamed', async () => {
    const failure = { ok: false as const, message: 'Could not rename the folder: you are offline.' };
    expect(await runFolderRenames(renames, async () => failure)).toEqual(failure);
    expect(await runFolderRenames(renames, async () => ({ ok: true }))).toEqual({ ok: true });
  });
});
