import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { installFakeClock } from '@/testing/timers';
import { ClipboardUnavailableError, copyWithClear, DEFAULT_CLIPBOARD_CLEAR_MS, type ClipboardAccess } from './clipboard';

/** A clipboard holding one text; `readable` false refuses reads as a browser may. */
function fakeClipboard() {
  const board = {
    text: '',
    readable: true,
    writes: [] as string[],
    writeText: vi.fn(async (text: string) => {
      board.writes.push(text);
      board.text = text;
    }),
    readText: vi.fn(async () => {
      if (!board.readable) throw new DOMException('Document is not focused.', 'NotAllowedError');
      return board.text;
    }),
  };
  return board;
}

/** The person copies `text` themselves, outside Lockit. */
function copyElsewhere(clipboard: ReturnType<typeof fakeClipboard>, text: string) {
  clipboard.text = text;
}

beforeEach(() => {
  installFakeClock();
});

describe('copyWithClear', () => {
  it('clears the copied text after 30 seconds', async () => {
    const clipboard = fakeClipboard();
    await copyWithClear('s3cret', { clearAfterMs: DEFAULT_CLIPBOARD_CLEAR_MS, clipboard });
    expect(clipboard.text).toBe('s3cret');

    await vi.advanceTimersByTimeAsync(DEFAULT_CLIPBOARD_CLEAR_MS - 1);
    expect(clipboard.text).toBe('s3cret');
    await vi.advanceTimersByTimeAsync(1);
    expect(clipboard.text).toBe('');
  });

  it('leaves what the person copied meanwhile', async () => {
    const clipboard = fakeClipboard();
    await copyWithClear('s3cret', { clearAfterMs: 30_000, clipboard });
    copyElsewhere(clipboard, 'a shopping list');

    await vi.advanceTimersByTimeAsync(30_000);
    expect(clipboard.text).toBe('a shopping list');
    expect(clipboard.writes).toEqual(['s3cret']);
  });

  it('gives a second copy its full time and drops the first copy’s clear', async () => {
    const clipboard = fakeClipboard();
    await copyWithClear('first', { clearAfterMs: 30_000, clipboard });
    await vi.advanceTimersByTimeAsync(20_000);
    await copyWithClear('second', { clearAfterMs: 30_000, clipboard });

    await vi.advanceTimersByTimeAsync(29_999);
    expect(clipboard.text).toBe('second');
    expect(clipboard.readText).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(clipboard.text).toBe('');
    expect(clipboard.writes).toEqual(['first', 'second', '']);
  });

  it('does not let an older copy clear a newer copy of the same text early', async () => {
    const clipboard = fakeClipboard();
    await copyWithClear('same', { clearAfterMs: 30_000, clipboard });
    await vi.advanceTimersByTimeAsync(25_000);
    await copyWithClear('same', { clearAfterMs: 30_000, clipboard });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(clipboard.text).toBe('same');
  });

  it('keeps only the last clear when two copies overlap while writing', async () => {
    const clipboard = fakeClipboard();
    await Promise.all([
      copyWithClear('first', { clearAfterMs: 10_000, clipboard }),
      copyWithClear('second', { clearAfterMs: 30_000, clipboard }),
    ]);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(clipboard.readText).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(20_000);
    expect(clipboard.text).toBe('');
  });

  it('never clears blindly when the clipboard cannot be read', async () => {
    const clipboard = fakeClipboard();
    vi.spyOn(document, 'hasFocus').mockReturnValue(true);
    await copyWithClear('s3cret', { clearAfterMs: 30_000, clipboard });
    clipboard.readable = false;

    await vi.advanceTimersByTimeAsync(30_000);
    expect(clipboard.readText).toHaveBeenCalledOnce();
    expect(clipboard.writes).toEqual(['s3cret']);
    window.dispatchEvent(new FocusEvent('focus'));
    await vi.advanceTimersByTimeAsync(0);
    expect(clipboard.readText).toHaveBeenCalledOnce();
  });

  it('tries again once the page has focus back when the read was refused for lack of focus', async () => {
    const clipboard = fakeClipboard();
    const hasFocus = vi.spyOn(document, 'hasFocus').mockReturnValue(false);
    await copyWithClear('s3cret', { clearAfterMs: 30_000, clipboard });
    clipboard.readable = false;

    await vi.advanceTimersByTimeAsync(30_000);
    expect(clipboard.text).toBe('s3cret');

    hasFocus.mockReturnValue(true);
    clipboard.readable = true;
    window.dispatchEvent(new FocusEvent('focus'));
    await vi.advanceTimersByTimeAsync(0);
    expect(clipboard.text).toBe('');
  });

  it('tries only once after focus, and not at all once a newer copy was made', async () => {
    const clipboard = fakeClipboard();
    vi.spyOn(document, 'hasFocus').mockReturnValue(false);
    await copyWithClear('s3cret', { clearAfterMs: 30_000, clipboard });
    clipboard.readable = false;
    await vi.advanceTimersByTimeAsync(30_000);
    window.dispatchEvent(new FocusEvent('focus'));
    await vi.advanceTimersByTimeAsync(0);
    window.dispatchEvent(new FocusEvent('focus'));
    await vi.advanceTimersByTimeAsync(0);
    expect(clipboard.readText).toHaveBeenCalledTimes(2);

    await copyWithClear('other', { clearAfterMs: 30_000, clipboard });
    await vi.advanceTimersByTimeAsync(30_000);
    expect(clipboard.readText).toHaveBeenCalledTimes(3);
    await copyWithClear('newest', { clearAfterMs: 0, clipboard });
    window.dispatchEvent(new FocusEvent('focus'));
    await vi.advanceTimersByTimeAsync(0);
    expect(clipboard.readText).toHaveBeenCalledTimes(3);
  });

  it('leaves the text when no clear time is given', async () => {
    const clipboard = fakeClipboard();
    await copyWithClear('kept', { clearAfterMs: 0, clipboard });
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(clipboard.text).toBe('kept');
    expect(clipboard.readText).not.toHaveBeenCalled();
  });

  it('rejects and schedules nothing when the write fails', async () => {
    const clipboard = fakeClipboard();
    clipboard.writeText.mockRejectedValueOnce(new DOMException('Write permission denied.', 'NotAllowedError'));
    await expect(copyWithClear('s3cret', { clearAfterMs: 30_000, clipboard })).rejects.toThrow('Write permission denied.');
    await vi.advanceTimersByTimeAsync(30_000);
    expect(clipboard.readText).not.toHaveBeenCalled();
  });

  describe('without a clipboard option', () => {
    // jsdom has no navigator.clipboard (user-event adds one per test); put back whatever was there.
    const original = Object.getOwnPropertyDescriptor(navigator, 'clipboard');
    const setPageClipboard = (value: ClipboardAccess | undefined) =>
      Object.defineProperty(navigator, 'clipboard', { value, configurable: true });
    afterEach(() => {
      if (original) Object.defineProperty(navigator, 'clipboard', original);
      else Reflect.deleteProperty(navigator, 'clipboard');
    });

    it('says so when the page has no clipboard (an insecure context)', async () => {
      setPageClipboard(undefined);
      await expect(copyWithClear('s3cret', { clearAfterMs: 30_000 })).rejects.toThrow(ClipboardUnavailableError);
    });

    it('uses the page’s clipboard', async () => {
      const clipboard = fakeClipboard();
      setPageClipboard(clipboard);
      await copyWithClear('s3cret', { clearAfterMs: 30_000 });
      expect(clipboard.text).toBe('s3cret');
      await vi.advanceTimersByTimeAsync(30_000);
      expect(clipboard.text).toBe('');
    });
  });
});
