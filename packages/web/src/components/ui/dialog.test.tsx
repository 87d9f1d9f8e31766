import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useRef, useState } from 'react';
import { describe, expect, it } from 'vitest';
import { Dialog } from './dialog';

function Harness({ focusLast = false }: { focusLast?: boolean }) {
  const [open, setOpen] = useState(false);
  const lastRef = useRef<HTMLButtonElement>(null);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      <button type="button">Outside</button>
      {open && (
        <Dialog title="Confirm thing" onClose={() => setOpen(false)} initialFocusRef={focusLast ? lastRef : undefined}>
          <label>
            Name
            <input />
          </label>
          <button type="button">Middle</button>
          <button ref={lastRef} type="button" onClick={() => setOpen(false)}>
            Cancel
          </button>
        </Dialog>
      )}
    </>
  );
}

async function openDialog(focusLast = false) {
  const user = userEvent.setup();
  render(<Harness focusLast={focusLast} />);
  await user.click(screen.getByRole('button', { name: 'Open' }));
  return user;
}

describe('Dialog', () => {
  it('is a modal dialog named by its title', async () => {
    await openDialog();
    const dialog = screen.getByRole('dialog', { name: 'Confirm thing' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
  });

  it('moves focus to its first focusable element, or to the one it is told', async () => {
    await openDialog();
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveFocus();
  });

  it('focuses the element given as initial focus', async () => {
    await openDialog(true);
    expect(screen.getByRole('button', { name: 'Cancel' })).toHaveFocus();
  });

  it('keeps Tab and Shift+Tab inside', async () => {
    const user = await openDialog();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Middle' })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveFocus();
    await user.tab({ shift: true });
    expect(screen.getByRole('button', { name: 'Cancel' })).toHaveFocus();
  });

  it('closes on Escape and gives focus back to the opener', async () => {
    const user = await openDialog();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Open' })).toHaveFocus();
  });

  it('gives focus back to the opener when closed by its own button', async () => {
    const user = await openDialog();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Open' })).toHaveFocus();
  });
});
