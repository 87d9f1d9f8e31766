import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { KeyFileInput } from './key-file-input';

describe('KeyFileInput', () => {
  it("hands the chosen key file's bytes to the parser, names it, and says what cannot be opened", async () => {
    const user = userEvent.setup();
    const received: (Uint8Array | undefined)[] = [];
    render(<KeyFileInput onKeyFile={(bytes) => received.push(bytes)} />);
    const bytes = new Uint8Array([1, 2, 3, 250]);
    const file = new File([bytes], 'db.keyx');
    // jsdom's File has no arrayBuffer(); the browser's has, and the input reads the file with it.
    Object.defineProperty(file, 'arrayBuffer', { value: async () => bytes.slice().buffer });
    await user.upload(screen.getByLabelText('Key file (if the database needs one)'), file);
    await waitFor(() => expect(received).toEqual([bytes]));
    expect(screen.getByText('Key file: db.keyx')).toBeInTheDocument();
    expect(screen.getByText(/needs a hardware key \(YubiKey\) cannot be opened here/)).toBeInTheDocument();
  });
});
