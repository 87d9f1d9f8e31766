import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { advance, installFakeClockWithRealTime } from '@/testing/timers';
import { STRENGTH_DEBOUNCE_MS, StrengthMeter } from './strength-meter';

describe('StrengthMeter', () => {
  it('says nothing for an empty password', () => {
    const { container } = render(<StrengthMeter password="" />);
    expect(container.querySelector('[aria-live="polite"]')).toHaveTextContent('');
  });

  it('waits for typing to pause, then shows the label, the crack time and the feedback in a polite live region', async () => {
    installFakeClockWithRealTime();
    const { rerender } = render(<StrengthMeter password="password1" />);
    await advance(STRENGTH_DEBOUNCE_MS - 10);
    expect(screen.queryByText(/Strength:/)).not.toBeInTheDocument();
    await advance(10);
    const label = await screen.findByText('Strength: Very weak');
    expect(label.closest('[aria-live="polite"]')).not.toBeNull();
    expect(screen.getByText(/time to crack offline: less than a second/)).toBeInTheDocument();
    expect(screen.getByText('This is a commonly used password.')).toBeInTheDocument();

    rerender(<StrengthMeter password="password1 of a quiet violet orchard" />);
    // The old verdict is not shown for the new text while it is being measured.
    expect(screen.queryByText('Strength: Very weak')).not.toBeInTheDocument();
    await act(async () => advance(STRENGTH_DEBOUNCE_MS));
    expect(await screen.findByText('Strength: Very strong')).toBeInTheDocument();
  });

  it('counts the user inputs as guessable', async () => {
    installFakeClockWithRealTime();
    render(<StrengthMeter password="zorblaxquintel" userInputs={['zorblax', 'quintel']} />);
    await advance(STRENGTH_DEBOUNCE_MS);
    expect(await screen.findByText(/Strength: (Very weak|Weak|Fair)/)).toBeInTheDocument();
  });
});
