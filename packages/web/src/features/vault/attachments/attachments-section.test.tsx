import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState, type ComponentProps } from 'react';
import { describe, expect, it } from 'vitest';
import type { FileRef } from '@lockit/contract';
import { memoryServer } from '@/testing/memory-attachments';
import { generateVaultKeyBytes, importVaultKey, newEntryId, SEALED_CHUNK_BYTES } from '@lockit/crypto';
import { readBlob } from './attachment-platform';
import { AttachmentsSection } from './attachments-section';

const MiB = 1024 * 1024;

/**
 * The item the files belong to, as the vault keeps it: its file list (undefined: it never
 * listed one), changed by each save; `refuse` makes the next saves fail, as a server would.
 */
class Item {
  saves = 0;
  refuse: string | null = null;
  /** The lists of the versions each save replaced (the item's history). */
  readonly history: (FileRef[] | undefined)[] = [];
  constructor(public files: FileRef[] | undefined) {}

  historyIds = async () => new Set(this.history.flatMap((files) => (files ?? []).map((file) => file.id)));

  /** What a save of the item does: its list changed, or the refusal a server would answer. */
  /** Files deleted for good, as the item remembers them. */
  deletedFiles: string[] = [];

  save(
    change: (files: FileRef[]) => FileRef[],
    served: readonly FileRef[],
    deletedForGood?: string,
  ): { ok: true } | { ok: false; message: string } {
    if (this.refuse) return { ok: false, message: this.refuse };
    this.history.push(this.files);
    this.files = change(this.files ?? [...served]);
    if (deletedForGood !== undefined) this.deletedFiles = [...this.deletedFiles, deletedForGood];
    this.saves += 1;
    return { ok: true };
  }
}
const newItem = (files?: FileRef[]) => new Item(files);

/** The section inside an item: its list kept in `item` across renders, saved by setFiles. */
function ItemSection({
  item,
  ...props
}: { item: Item } & Omit<ComponentProps<typeof AttachmentsSection>, 'listed' | 'setFiles'>) {
  const [listed, setListed] = useState({ files: item.files, deleted: item.deletedFiles });
  return (
    <AttachmentsSection
      {...props}
      listed={listed.files}
      deletedFiles={listed.deleted}
      historyIds={item.historyIds}
      setFiles={async (change, served, deletedForGood) => {
        const result = item.save(change, served, deletedForGood);
        setListed({ files: item.files, deleted: item.deletedFiles });
        return result;
      }}
    />
  );
}

async function renderSection(
  server = memoryServer(),
  trashed = false,
  keys?: { vaultKey: CryptoKey; entryId: string; item?: Item },
  keyEpoch?: number,
) {
  const item = keys?.item ?? newItem();
  const vaultKey = keys?.vaultKey ?? (await importVaultKey(generateVaultKeyBytes()));
  const entryId = keys?.entryId ?? newEntryId();
  const saved: Array<{ blob: Blob; name: string }> = [];
  const user = userEvent.setup();
  render(
    <ItemSection
      item={item}
      entryId={entryId}
      vaultKey={vaultKey}
      keyEpoch={keyEpoch}
      trashed={trashed}
      platform={server.platform}
      save={(blob, name) => saved.push({ blob, name })}
    />,
  );
  await screen.findByRole('heading', { name: 'Files' });
  await waitFor(() => expect(screen.queryByText('Loading files…')).not.toBeInTheDocument());
  return { server, saved, user, vaultKey, entryId, item };
}

const textFile = (name: string, text: string) => new File([text], name, { type: 'text/plain' });

async function attach(user: ReturnType<typeof userEvent.setup>, file: File) {
  await user.upload(screen.getByLabelText('Choose a file to attach'), file);
  return screen.findByRole('listitem', { name: file.name });
}

describe('the item view’s files', () => {
  it('attaches a picked file sealed, lists its name, size and date, and downloads the same bytes', async () => {
    const { server, saved, user } = await renderSection();
    const row = await attach(user, textFile('recovery codes.txt', 'alpha bravo charlie'));
    expect(within(row).getByText('recovery codes.txt')).toBeInTheDocument();
    expect(row).toHaveTextContent('19 bytes ·');
    expect(row.querySelector('time')).toHaveAttribute('datetime', '2026-11-27T10:00:00.000Z');
    // Nothing the server got holds the name or the content in clear.
    expect(server.sent.some((body) => body.includes('recovery codes') || body.includes('alpha bravo'))).toBe(false);

    await user.click(within(row).getByRole('button', { name: 'Download recovery codes.txt' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]!.name).toBe('recovery codes.txt');
    expect(new TextDecoder().decode(await readBlob(saved[0]!.blob))).toBe('alpha bravo charlie');
  });

  it("names the vault key's epoch with a new file, so a key rotated meanwhile refuses it", async () => {
    const { server, user } = await renderSection(memoryServer(), false, undefined, 3);
    await attach(user, textFile('a.txt', 'x'));
    const created = server.sent.find((body) => body.startsWith('{') && body.includes('"wrappedKey"'));
    expect((JSON.parse(created!) as { keyEpoch?: number }).keyEpoch).toBe(3);
  });

  it('renames with a new sealed name, refusing a name with a slash, and deletes after a confirmation', async () => {
    const { server, user, item } = await renderSection();
    const row = await attach(user, textFile('a.txt', 'x'));
    await user.click(within(row).getByRole('button', { name: 'Rename a.txt' }));
    const dialog = screen.getByRole('dialog', { name: 'Rename file' });
    const field = within(dialog).getByLabelText('File name');
    await user.clear(field);
    await user.type(field, 'tax/2026.txt');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent(
      'A file name cannot hold a slash, a backslash or a control character.',
    );
    await user.clear(field);
    await user.type(field, 'tax 2026.txt');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await screen.findByRole('listitem', { name: 'tax 2026.txt' });
    expect(server.sent.some((body) => body.includes('tax 2026'))).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Delete tax 2026.txt' }));
    const confirm = screen.getByRole('dialog', { name: 'Delete file' });
    expect(confirm).toHaveTextContent(
      "Delete tax 2026.txt from this item? The item's earlier versions keep it, so restoring one brings it back, until you delete it for good.",
    );
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await screen.findByText('No files attached.');
    // Kept for the version before, which lists it, until deleted for good.
    const kept = await screen.findByLabelText('Files kept for earlier versions');
    expect(kept).toHaveTextContent('tax 2026.txt (1 byte)');
    expect(server.files.size).toBe(1);
    await user.click(within(kept).getByRole('button', { name: 'Delete tax 2026.txt for good' }));
    const forGood = screen.getByRole('dialog', { name: 'Delete file' });
    expect(forGood).toHaveTextContent(
      'Delete tax 2026.txt for good? It cannot be brought back, not even with an earlier version of the item.',
    );
    await user.click(within(forGood).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(server.files.size).toBe(0));
    await waitFor(() => expect(screen.queryByLabelText('Files kept for earlier versions')).not.toBeInTheDocument());
    // The item remembers it: a server serving it again cannot pass it off as kept for a version.
    expect(item.deletedFiles).toHaveLength(1);
  });

  it('says plainly when the server changed the file, and saves nothing', async () => {
    const { server, saved, user } = await renderSection();
    const row = await attach(user, new File([new Uint8Array(3 * SEALED_CHUNK_BYTES)], 'scan.bin'));
    server.lieWith((bytes) => bytes.subarray(0, 2 * SEALED_CHUNK_BYTES));
    await user.click(within(row).getByRole('button', { name: 'Download scan.bin' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'scan.bin was not downloaded: This file arrived cut short: the server sent less than the file holds. The file was not saved.',
    );
    expect(saved).toEqual([]);
  });

  it('refuses a file past the limit before reading it, with the limit in the message', async () => {
    const { user, server } = await renderSection(memoryServer({ maxFileBytes: MiB, maxAccountBytes: 1024 * MiB }));
    await user.upload(screen.getByLabelText('Choose a file to attach'), new File([new Uint8Array(MiB + 1)], 'video.mp4'));
    expect(await screen.findByRole('alert')).toHaveTextContent('video.mp4 is larger than the limit of 1 MB per file.');
    expect(server.files.size).toBe(0);
  });

  it('saves the item with each file it attaches, renames and deletes, so the item lists its files', async () => {
    const { user, item } = await renderSection();
    await attach(user, textFile('a.txt', 'x'));
    await attach(user, textFile('b.txt', 'yy'));
    expect(item.files!.map(({ name, size }) => [name, size])).toEqual([
      ['a.txt', 1],
      ['b.txt', 2],
    ]);
    await user.click(screen.getByRole('button', { name: 'Rename a.txt' }));
    const dialog = screen.getByRole('dialog', { name: 'Rename file' });
    await user.clear(within(dialog).getByLabelText('File name'));
    await user.type(within(dialog).getByLabelText('File name'), 'c.txt');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await screen.findByRole('listitem', { name: 'c.txt' });
    await user.click(screen.getByRole('button', { name: 'Delete b.txt' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Delete file' })).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(item.files!.map((file) => file.name)).toEqual(['c.txt']));
    expect(item.saves).toBe(4);
  });

  it('names a file the item lists that the server did not serve as missing, not as no file', async () => {
    const server = memoryServer();
    const first = await renderSection(server);
    await attach(first.user, textFile('passport.jpg', 'scan'));
    cleanup();
    // The server drops the file behind the item's back.
    server.files.clear();
    await renderSection(server, false, first);
    const row = screen.getByRole('listitem', { name: 'Missing file passport.jpg' });
    expect(within(row).getByRole('alert')).toHaveTextContent(
      'Missing file: passport.jpg (4 bytes). The item lists this file, but the server did not serve it: it was withheld or deleted there, or its upload never finished.',
    );
    expect(screen.queryByText('No files attached.')).not.toBeInTheDocument();
  });

  it('keeps a served file the item does not list out of its files until the person keeps it', async () => {
    const server = memoryServer();
    const first = await renderSection(server);
    await attach(first.user, textFile('deleted.txt', 'gone'));
    cleanup();
    // The item was saved without the file (deleted here); the server brings the file back.
    const { user, item } = await renderSection(server, false, { ...first, item: newItem([]) });
    expect(screen.getByText('No files attached.')).toBeInTheDocument();
    const apart = screen.getByRole('alert', { name: 'Files the item does not list' });
    expect(apart).toHaveTextContent('The server holds a file for this item that neither the item nor its history lists.');
    expect(apart).toHaveTextContent('deleted.txt (4 bytes)');
    await user.click(within(apart).getByRole('button', { name: 'Keep deleted.txt' }));
    await screen.findByRole('listitem', { name: 'deleted.txt' });
    expect(item.files!.map((file) => file.name)).toEqual(['deleted.txt']);
  });

  it('deletes a new file again when the item cannot be saved with it, and says why', async () => {
    const { user, item, server } = await renderSection();
    item.refuse = 'Your vault was changed elsewhere since this change was made. Try again.';
    await user.upload(screen.getByLabelText('Choose a file to attach'), textFile('a.txt', 'x'));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'a.txt was not attached: Your vault was changed elsewhere since this change was made. Try again.',
    );
    await waitFor(() => expect(server.files.size).toBe(0));
    expect(screen.getByText('No files attached.')).toBeInTheDocument();
  });

  it('lists the files of an item that never listed them as served, and lists them at the first change', async () => {
    const server = memoryServer();
    const first = await renderSection(server, false, {
      vaultKey: await importVaultKey(generateVaultKeyBytes()),
      entryId: newEntryId(),
      item: newItem(),
    });
    await attach(first.user, textFile('old.txt', 'o'));
    cleanup();
    const legacy = newItem();
    const { user } = await renderSection(server, false, { ...first, item: legacy });
    expect(screen.getByRole('listitem', { name: 'old.txt' })).toBeInTheDocument();
    await attach(user, textFile('new.txt', 'n'));
    expect(legacy.files!.map((file) => file.name)).toEqual(['old.txt', 'new.txt']);
  });

  it('in Trash lists and downloads, but offers no add, rename or delete', async () => {
    const server = memoryServer();
    const first = await renderSection(server);
    await attach(first.user, textFile('kept.txt', 'kept'));
    cleanup();
    const { user, saved } = await renderSection(server, true, first);
    const row = screen.getByRole('listitem', { name: 'kept.txt' });
    expect(screen.queryByRole('button', { name: 'Add file' })).not.toBeInTheDocument();
    expect(within(row).queryByRole('button', { name: /Rename|Delete/ })).not.toBeInTheDocument();
    await user.click(within(row).getByRole('button', { name: 'Download kept.txt' }));
    await waitFor(() => expect(saved.map((file) => file.name)).toEqual(['kept.txt']));
  });
});

describe('sharing a file of the item', () => {
  it('offers Share on each file only when sharing is on, handing that opened file to the Share form', async () => {
    const server = memoryServer();
    const vaultKey = await importVaultKey(generateVaultKeyBytes());
    const entryId = newEntryId();
    const shared: string[] = [];
    const user = userEvent.setup();
    const item = newItem();
    const view = render(
      <ItemSection
        item={item}
        entryId={entryId}
        vaultKey={vaultKey}
        trashed={false}
        platform={server.platform}
        onShare={(file) => shared.push(file.name)}
      />,
    );
    await waitFor(() => expect(screen.queryByText('Loading files…')).not.toBeInTheDocument());
    const row = await attach(user, textFile('floor plan.txt', 'room 4'));
    await user.click(within(row).getByRole('button', { name: 'Share floor plan.txt' }));
    expect(shared).toEqual(['floor plan.txt']);
    view.unmount();
    cleanup();

    render(<ItemSection item={item} entryId={entryId} vaultKey={vaultKey} trashed={false} platform={server.platform} />);
    const again = await screen.findByRole('listitem', { name: 'floor plan.txt' });
    expect(within(again).queryByRole('button', { name: /^Share/ })).not.toBeInTheDocument();
  });
});
