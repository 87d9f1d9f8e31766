import { beforeEach, describe, expect, it, vi } from 'vitest';
import { CLIPBOARD_CLEAR_STORAGE_KEY, saveClipboardClearSeconds } from '@/lib/clipboard-clear';
import { installFakeClock } from '@/testing/timers';
import { copyWithClear, DEFAULT_CLIPBOARD_CLEAR_MS } from './clipboard';

/** A clipboard holding one text, as the page's would. */
function fakeClipboard() {
  const board = {
    text: '',
    writes: [] as string[],
    writeText: vi.fn(async (text: string) => {
      board.writes.push(text);
      board.text = text;
    }),
    readText: vi.fn(async () => board.text),
  };
  return board;
}

beforeEach(() => {
  installFakeClock();
});

describe('copyWithClear: the delay chosen in Profile', () => {
  it('clears after 30 seconds when nothing was chosen', async () => {
    const clipboard = fakeClipboard();
    await copyWithClear('s3cret', { clipboard });
    await vi.advanceTimersByTimeAsync(DEFAULT_CLIPBOARD_CLEAR_MS - 1);
    expect(clipboard.text).toBe('s3cret');
    await vi.advanceTimersByTimeAsync(1);
    expect(clipboard.text).toBe('');
  });

  it.each([
    [10, 10_000],
    [60, 60_000],
    [300, 300_000],
  ] as const)('clears after the chosen %i seconds, not before', async (seconds, ms) => {
    saveClipboardClearSeconds(seconds);
    const clipboard = fakeClipboard();
    await copyWithClear('s3cret', { clipboard });

    await vi.advanceTimersByTimeAsync(ms - 1);
    expect(clipboard.text).toBe('s3cret');
    expect(clipboard.readText).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(clipboard.text).toBe('');
    expect(clipboard.writes).toEqual(['s3cret', '']);
  });

  it('leaves what someone else put on the clipboard meanwhile, at the chosen delay too', async () => {
    saveClipboardClearSeconds(10);
    const clipboard = fakeClipboard();
    await copyWithClear('s3cret', { clipboard });
    clipboard.text = 'copied in another app';

    await vi.advanceTimersByTimeAsync(300_000);
    expect(clipboard.readText).toHaveBeenCalledOnce();
    expect(clipboard.text).toBe('copied in another app');
    expect(clipboard.writes).toEqual(['s3cret']);
  });

  it('reads the choice at each copy, so a change applies to the next copy', async () => {
    const clipboard = fakeClipboard();
    saveClipboardClearSeconds(120);
    await copyWithClear('first', { clipboard });
    saveClipboardClearSeconds(20);
    await copyWithClear('second', { clipboard });

    await vi.advanceTimersByTimeAsync(20_000);
    expect(clipboard.text).toBe('');
  });

  it('falls back to 30 seconds for a stored value Profile does not offer', async () => {
    window.localStorage.setItem(CLIPBOARD_CLEAR_STORAGE_KEY, '0');
    const clipboard = fakeClipboard();
    await copyWithClear('s3cret', { clipboard });
    await vi.advanceTimersByTimeAsync(29_999);
    expect(clipboard.text).toBe('s3cret');
    await vi.advanceTimersByTimeAsync(1);
    expect(clipboard.text).toBe('');
  });

  it('still takes an explicit delay over the chosen one', async () => {
    saveClipboardClearSeconds(10);
    const clipboard = fakeClipboard();
    await copyWithClear('s3cret', { clipboard, clearAfterMs: 20_000 });
    await vi.advanceTimersByTimeAsync(19_999);
    expect(clipboard.text).toBe('s3cret');
    await vi.advanceTimersByTimeAsync(1);
    expect(clipboard.text).toBe('');
  });
});
