import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AttachmentPlatform, BinaryRequest } from '@lockit/client-core';
import { SEALED_CHUNK_BYTES, sealShareKeyed, sealSharedFileStream, type SharedFile } from '@lockit/crypto';
import { readBlob } from '../attachments/attachment-platform';
import { SharedFileView } from './shared-file-view';

/** The recipient's file view (decision 0081): checked as it arrives, saved only whole and unchanged. */
const plain = Uint8Array.from({ length: 150_000 }, (_, i) => (i * 13) & 0xff);
const file: SharedFile = { name: 'minutes.pdf', type: 'application/pdf', size: plain.length };

async function sharedFile() {
  const { sealed, key } = await sealShareKeyed({ kind: 'file', file }, null);
  const parts: Uint8Array[] = [];
  async function* source() {
    yield plain;
  }
  for await (const chunk of sealSharedFileStream(key, sealed.id, source(), plain.length)) parts.push(chunk);
  const bytes = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return { id: sealed.id, key, bytes };
}

/** A platform whose server answers the file download with `bytes`, in pieces, and records the request. */
function serving(bytes: Uint8Array) {
  const requests: BinaryRequest[] = [];
  const platform = {
    baseUrl: '',
    api: { refresh: async () => undefined } as unknown as AttachmentPlatform['api'],
    binary: async (request: BinaryRequest) => {
      requests.push(request);
      async function* body() {
        for (let i = 0; i < bytes.length; i += 40_000) yield bytes.subarray(i, i + 40_000);
      }
      return { status: 200, headers: new Headers(), body: body(), text: async () => '' };
    },
  };
  return { platform, requests };
}

afterEach(() => {
  delete (globalThis as { showSaveFilePicker?: unknown }).showSaveFilePicker;
});

describe('a shared file on the recipient page', () => {
  it('shows its sealed name and size, and downloads it checked with the opening’s ticket only on the click', async () => {
    const { id, key, bytes } = await sharedFile();
    const { platform, requests } = serving(bytes);
    const save = vi.fn();
    render(
      <SharedFileView
        id={id}
        file={file}
        shareKey={key}
        served={{ size: bytes.length, ticket: 'the-ticket' }}
        platform={platform}
        save={save}
        usePicker={false}
      />,
    );
    expect(screen.getByText('minutes.pdf')).toBeInTheDocument();
    expect(screen.getByText('146.5 KB')).toBeInTheDocument();
    expect(requests).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(save).toHaveBeenCalledTimes(1));
    const [blob, name] = save.mock.calls[0] as [Blob, string];
    expect(name).toBe('minutes.pdf');
    expect(new Uint8Array(await readBlob(blob))).toEqual(plain);
    expect(requests[0]).toMatchObject({ method: 'POST', url: `/api/shared/${id}/file` });
    expect(new TextDecoder().decode(requests[0]!.body)).toBe('{"ticket":"the-ticket"}');
    expect(await screen.findByRole('status')).toHaveTextContent('exactly what was shared');
  });

  it('refuses a changed file and a file cut short with a plain message, saving nothing', async () => {
    const { id, key, bytes } = await sharedFile();
    const changed = bytes.slice();
    changed[SEALED_CHUNK_BYTES + 100]! ^= 1;
    for (const [served, message] of [
      [changed, 'This file was changed after it was shared'],
      [bytes.subarray(0, bytes.length - 10), 'This file arrived cut short'],
    ] as const) {
      const save = vi.fn();
      const view = render(
        <SharedFileView
          id={id}
          file={file}
          shareKey={key}
          served={{ size: bytes.length, ticket: 't' }}
          platform={serving(served).platform}
          save={save}
          usePicker={false}
        />,
      );
      await userEvent.click(screen.getByRole('button', { name: 'Download' }));
      expect(await screen.findByRole('alert')).toHaveTextContent(message);
      expect(save).not.toHaveBeenCalled();
      view.unmount();
    }
  });

  it('writes to the save picker as it checks, and aborts it (nothing kept) when a part fails', async () => {
    const { id, key, bytes } = await sharedFile();
    const changed = bytes.slice();
    changed[2 * SEALED_CHUNK_BYTES + 5]! ^= 1;
    const writable = {
      write: vi.fn(async () => undefined),
      close: vi.fn(async () => undefined),
      abort: vi.fn(async () => undefined),
    };
    (globalThis as { showSaveFilePicker?: unknown }).showSaveFilePicker = vi.fn(async () => ({
      createWritable: async () => writable,
    }));
    render(
      <SharedFileView
        id={id}
        file={file}
        shareKey={key}
        served={{ size: bytes.length, ticket: 't' }}
        platform={serving(changed).platform}
      />,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Download' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('changed after it was shared');
    expect(writable.abort).toHaveBeenCalledTimes(1);
    expect(writable.close).not.toHaveBeenCalled();
  });

  it('offers no download when the server reports another size than the sealed one', async () => {
    const { id, key, bytes } = await sharedFile();
    render(
      <SharedFileView
        id={id}
        file={file}
        shareKey={key}
        served={{ size: bytes.length + 1, ticket: 't' }}
        platform={serving(bytes).platform}
      />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('did not send this file as it was shared');
    expect(screen.queryByRole('button', { name: 'Download' })).not.toBeInTheDocument();
  });
});
