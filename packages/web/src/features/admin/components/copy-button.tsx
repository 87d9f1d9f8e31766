import { useToast } from '@/components/ui/toast';
import { buttonSecondary } from '@/components/ui/styles';
import { copyWithClear } from '@/lib/clipboard';

/** Copies `text` and leaves it on the clipboard (it is for pasting elsewhere, not a vault secret). */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const toast = useToast();
  const onCopy = () => {
    copyWithClear(text, { clearAfterMs: 0 }).then(
      () => toast({ kind: 'success', message: 'Copied', durationMs: 2000 }),
      () => toast({ kind: 'error', message: 'Could not copy: select the text and copy it yourself.', durationMs: 3000 }),
    );
  };
  return (
    <button type="button" className={buttonSecondary} onClick={onCopy} aria-label={label}>
      Copy
    </button>
  );
}
