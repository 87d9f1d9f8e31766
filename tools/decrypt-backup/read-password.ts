import type { ReadStream } from 'node:tty';

/**
 * Asks for a password on the terminal without echoing it: raw mode, one key at a time,
 * Backspace edits, Enter ends, Ctrl-C or Ctrl-D aborts. The prompt goes to stderr so stdout
 * stays the plaintext JSON alone.
 */
export function readPasswordFromTerminal(prompt: string, input: ReadStream, output: NodeJS.WritableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    let typed = '';
    output.write(prompt);
    input.setRawMode(true);
    input.setEncoding('utf8');
    input.resume();
    const finish = (error: Error | null) => {
      input.setRawMode(false);
      input.pause();
      input.off('data', onData);
      output.write('\n');
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n') return finish(null);
        if (char === '\u0003' || char === '\u0004') return finish(new Error('Cancelled.'));
        if (char === '\u007f' || char === '\b') typed = [...typed].slice(0, -1).join('');
        else if (char >= ' ') typed += char;
      }
    };
    input.on('data', onData);
  });
}
