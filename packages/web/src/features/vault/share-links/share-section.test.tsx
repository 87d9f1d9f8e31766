import { apiPaths } from '@lockit/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, route } from '@/testing/fake-api';
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
});
