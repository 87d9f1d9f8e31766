import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_GENERATOR_SETTINGS, type GeneratorSettings } from '@/lib/generator';
import { GeneratorPanel, type GeneratorPanelProps } from './generator-panel';

function Harness(props: Partial<GeneratorPanelProps> & { initial?: GeneratorSettings }) {
  const [settings, setSettings] = useState(props.initial ?? DEFAULT_GENERATOR_SETTINGS);
  return <GeneratorPanel renderStrength={() => null} {...props} settings={settings} onSettingsChange={setSettings} />;
}

const shown = () => screen.getByTestId('generated-value').textContent ?? '';
const entropy = () => screen.getByText(/bits$/).textContent;

async function renderPanel(props: Partial<GeneratorPanelProps> & { initial?: GeneratorSettings } = {}) {
  const user = userEvent.setup();
  render(<Harness {...props} />);
  await waitFor(() => expect(shown()).toHaveLength(20));
  return user;
}

describe('GeneratorPanel', () => {
  it('shows a password of the default settings in a monospace box, with its entropy in bits', async () => {
    await renderPanel();
    expect(screen.getByTestId('generated-value')).toHaveClass('font-mono');
    expect(screen.getByTestId('generated-value')).toHaveAccessibleName('Generated password');
    // 2 x log2(26) + log2(10) + log2(27) + 16 x log2(89) = 121.1
    expect(entropy()).toBe('121 bits');
  });

  it('makes a new value of the new length when the length changes, and the entropy follows', async () => {
    const user = await renderPanel();
    const length = screen.getByLabelText('Length');
    await user.clear(length);
    await user.type(length, '64');
    await waitFor(() => expect(shown()).toHaveLength(64));
    expect(Number(entropy()!.split(' ')[0])).toBeGreaterThan(400);
    // "1" (below the minimum of 5) is held while typing, until "12" makes it valid.
    await user.clear(length);
    await user.type(length, '1');
    expect(shown()).toHaveLength(64);
    await user.type(length, '2');
    await waitFor(() => expect(shown()).toHaveLength(12));
  });

  it('uses only the chosen kinds of characters and leaves out look-alikes on request', async () => {
    const user = await renderPanel();
    await user.click(screen.getByLabelText('Upper case (A-Z)'));
    await user.click(screen.getByLabelText('Symbols (!@#$...)'));
    await waitFor(() => expect(shown()).toMatch(/^[a-z0-9]{20}$/));
    await user.click(screen.getByLabelText('Avoid look-alike characters (I, l, 1, O, 0)'));
    await waitFor(() => expect(shown()).toMatch(/^[a-km-z2-9]{20}$/));
    expect(screen.getByLabelText('Minimum symbols')).toBeDisabled();
  });

  it('regenerates on request', async () => {
    const user = await renderPanel();
    const first = shown();
    await user.click(screen.getByRole('button', { name: 'Regenerate' }));
    await waitFor(() => expect(shown()).not.toBe(first));
  });

  it('copies the value shown, says so, and reports it as copied', async () => {
    const copy = vi.fn(async (_text: string) => {});
    const onCopied = vi.fn();
    const user = await renderPanel({ copy, onCopied });
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    expect(copy).toHaveBeenCalledWith(shown());
    expect(onCopied).toHaveBeenCalledWith(shown());
    expect(screen.getByText('Copied.')).toBeInTheDocument();
  });

  it('says so when the clipboard refuses, and reports nothing as copied', async () => {
    const onCopied = vi.fn();
    const user = await renderPanel({ copy: () => Promise.reject(new Error('denied')), onCopied });
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    expect(await screen.findByText('Could not copy: the clipboard is not available here.')).toBeInTheDocument();
    expect(onCopied).not.toHaveBeenCalled();
  });

  it('offers "Use this password" only when the caller takes the value, and hands over the value shown', async () => {
    const onUse = vi.fn();
    const user = await renderPanel({ onUse });
    await user.click(screen.getByRole('button', { name: 'Use this password' }));
    expect(onUse).toHaveBeenCalledWith(shown());
  });

  it('without onUse has no "Use this password" button', async () => {
    await renderPanel();
    expect(screen.queryByRole('button', { name: 'Use this password' })).toBeNull();
  });

  it('explains options that make no password and offers nothing to copy or use', async () => {
    const user = await renderPanel({ onUse: vi.fn() });
    for (const label of ['Upper case (A-Z)', 'Lower case (a-z)', 'Digits (0-9)', 'Symbols (!@#$...)']) {
      await user.click(screen.getByLabelText(label));
    }
    expect(screen.getByRole('alert')).toHaveTextContent('Choose at least one kind of character.');
    expect(shown()).toBe('');
    expect(entropy()).toBe('0 bits');
    for (const name of ['Copy', 'Use this password', 'Regenerate']) expect(screen.getByRole('button', { name })).toBeDisabled();
  });

  it('makes passphrases from the EFF list: words, separator, capitals and a number, with words x 12.9 bits', async () => {
    const user = await renderPanel();
    await user.click(screen.getByLabelText('Passphrase'));
    await waitFor(() => expect(shown()).toMatch(/^([A-Z][a-z-]*\d?-){4}[A-Z][a-z-]*\d?$/));
    expect(screen.getByTestId('generated-value')).toHaveAccessibleName('Generated passphrase');
    // 5 x log2(7776) + log2(10) + log2(5) = 70.3
    expect(entropy()).toBe('70 bits');
    const words = screen.getByLabelText('Words');
    await user.clear(words);
    await user.type(words, '8');
    await user.selectOptions(screen.getByLabelText('Separator'), 'Space');
    await user.click(screen.getByLabelText('Capitalise'));
    await user.click(screen.getByLabelText('Add a number'));
    await waitFor(() => expect(shown()).toMatch(/^([a-z-]+ ){7}[a-z-]+$/));
    expect(entropy()).toBe('103 bits');
    expect(within(screen.getByRole('link', { name: 'EFF large wordlist' })).getByText('EFF large wordlist')).toBeInTheDocument();
  });
});
