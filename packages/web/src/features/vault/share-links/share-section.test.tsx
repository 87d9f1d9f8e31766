import { apiPaths } from '@lockit/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { sealedAttachmentSize } from '@lockit/crypto';
import { fakeApi, route, routePrefix, type FakeRequest } from '@/testing/fake-api';
import { ShareSection } from './share-section';

function renderShare(shareLinks: boolean) {
  const api = fakeApi({
    [route('GET', apiPaths.publicConfig)]: { status: 200, body: { message: 'OK', data: { breachCheckUrl: null, shareLinks } } },
    [route('GET', apiPaths.shareLinks)]: { status: 200, body: { message: 'OK', data: [] } },
  });
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ShareSection entry={{ id: 'wifi', name: 'Guest Wifi' }} itemCopy={null} vaultKey={null} />
    </QueryClientProvider>,
  );
  return api;
}

describe("the item view's Share", () => {
  it('is offered when the server allows share links', async () => {
    renderShare(true);
    expect(await screen.findByRole('region', { name: 'Share' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Share' })).toBeInTheDocument();
  });

  it('is not shown at all when the operator turned share links off (SHARE_LINKS=false)', async () => {
    const api = renderShare(false);
    await waitFor(() => expect(api.to('GET', apiPaths.publicConfig)).toHaveLength(1));
    // Give the answer a render to land in.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('region', { name: 'Share' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Share' })).not.toBeInTheDocument();
  });

  it('shares a file from this device: sealed size announced, sealed bytes uploaded, finished, link shown once', async () => {
    const wire = (id: string) => ({
      id,
      createdAt: '2026-11-28T10:00:00.000Z',
      expiresAt: '2026-11-29T10:00:00.000Z',
      maxOpenings: 1,
      openingsLeft: 1,
      deleteAfterOpening: false,
      needsPassword: false,
      label: null,
      file: { size: sealedAttachmentSize(5000), finished: true },
    });
    const api = fakeApi({
      [route('GET', apiPaths.publicConfig)]: {
        status: 200,
        body: { message: 'OK', data: { breachCheckUrl: null, shareLinks: true } },
      },
      [route('GET', apiPaths.shareLinks)]: { status: 200, body: { message: 'OK', data: [] } },
      [route('POST', apiPaths.shareLinks)]: (request: FakeRequest) => ({
        status: 201,
        body: { message: 'Share link created', data: wire((request.body as { id: string }).id) },
      }),
      [routePrefix('PUT', '/api/share-links/')]: {
        status: 200,
        body: { message: 'Part stored', received: sealedAttachmentSize(5000) },
      },
      [routePrefix('POST', '/api/share-links/')]: (request: FakeRequest) => ({
        status: 200,
        body: { message: 'File uploaded', data: wire(request.path.split('/')[3]!) },
      }),
    });
    render(
      <QueryClientProvider client={new QueryClient()}>
        <ShareSection entry={{ id: 'wifi', name: 'Guest Wifi' }} itemCopy={null} vaultKey={null} />
      </QueryClientProvider>,
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Share' }));
    await userEvent.click(screen.getByRole('radio', { name: 'A file' }));
    const secret = new File([new Uint8Array(5000).fill(7)], 'contract.pdf', { type: 'application/pdf' });
    await userEvent.upload(screen.getByLabelText('File'), secret);
    await userEvent.click(screen.getByRole('button', { name: 'Create link' }));
    const link = (await screen.findByRole('textbox', { name: 'Share link' }, { timeout: 10_000 })) as HTMLInputElement;
    const create = api.to('POST', apiPaths.shareLinks)[0]!;
    const body = create.body as { id: string; fileSize: number; ciphertext: string };
    expect(body.fileSize).toBe(sealedAttachmentSize(5000));
    expect(JSON.stringify(body)).not.toContain('contract');
    expect(link.value).toMatch(new RegExp(`/share/${body.id}#[A-Za-z0-9_-]{43}$`));
    const parts = api.requests.filter((request) => request.method === 'PUT');
    expect(parts).toHaveLength(1);
    expect(parts[0]!.path).toBe(`/api/share-links/${body.id}/content`);
    expect(api.requests.some((request) => request.path === `/api/share-links/${body.id}/finish`)).toBe(true);
  }, 30_000);
});
