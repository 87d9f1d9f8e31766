import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { installFakeClock } from '@/testing/timers';
import { ToastProvider, useToast, type ToastOptions } from './toast';

function Trigger(props: ToastOptions) {
  const toast = useToast();
  return (
    <button type="button" onClick={() => toast(props)}>
      Notify
    </button>
  );
}

function renderTrigger(props: ToastOptions) {
  const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime.bind(vi) });
  render(
    <ToastProvider>
      <Trigger {...props} />
    </ToastProvider>,
  );
  return user;
}

const advance = (ms: number) => act(() => vi.advanceTimersByTime(ms));

describe('Toast', () => {
  beforeEach(() => {
    installFakeClock();
  });

  it('shows a green success toast for exactly its duration', async () => {
    const user = renderTrigger({ kind: 'success', message: 'Saved!', durationMs: 2000 });
    await user.click(screen.getByRole('button', { name: 'Notify' }));
    const toast = screen.getByRole('status');
    expect(toast).toHaveTextContent('Saved!');
    expect(toast).toHaveAttribute('data-kind', 'success');
    expect(toast).toHaveClass('bg-emerald-700');
    advance(1999);
    expect(screen.getByText('Saved!')).toBeInTheDocument();
    advance(1);
    expect(screen.queryByText('Saved!')).not.toBeInTheDocument();
  });

  it('shows a red error toast as an alert for its duration', async () => {
    const user = renderTrigger({ kind: 'error', message: 'Nope.', durationMs: 3000 });
    await user.click(screen.getByRole('button', { name: 'Notify' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Nope.');
    expect(screen.getByRole('alert')).toHaveClass('bg-red-700');
    advance(2999);
    expect(screen.getByRole('alert')).toBeInTheDocument();
    advance(1);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('can be dismissed early', async () => {
    const user = renderTrigger({ kind: 'error', message: 'Nope.', durationMs: 3000 });
    await user.click(screen.getByRole('button', { name: 'Notify' }));
    await user.click(screen.getByRole('button', { name: 'Dismiss notification' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
