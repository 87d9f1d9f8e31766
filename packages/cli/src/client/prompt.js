import { openSync } from 'node:fs';
import { ReadStream, WriteStream } from 'node:tty';

/**
 * Reads a secret from the terminal itself (/dev/tty, so a pipe on stdin does not matter) without
 * echo. Node has a raw mode but no "read without echo": this is the few lines every CLI writes
 * (readline's `output` muted leaves the typed text in the line buffer on some terminals, so raw
 * mode is used). Ctrl-C cancels, Backspace deletes, Enter ends.
 *
 * @param {string} question
 * @returns {Promise<string>}
 */
export function readSecret(question) {
  let input, output;
  try {
    const fd = openSync('/dev/tty', 'r+');
    input = new ReadStream(fd);
    output = new WriteStream(fd);
  } catch {
    return Promise.reject(new Error('No terminal to ask for it: pass it on standard input with --password-stdin.'));
  }
  output.write(question);
  input.setRawMode(true);
  input.setEncoding('utf8');
  return new Promise((resolve, reject) => {
    let typed = '';
    const done = (/** @type {Error | null} */ error) => {
      input.setRawMode(false);
      input.removeAllListeners('data');
      output.write('\n');
      input.destroy();
      output.destroy();
      if (error) reject(error);
      else resolve(typed);
    };
    input.on('data', (/** @type {string} */ chunk) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n') return done(null);
        if (char === '\u0003') return done(new Error('Cancelled.'));
        if (char === '\u007f' || char === '\b') typed = typed.slice(0, -1);
        else if (char >= ' ') typed += char;
      }
    });
  });
}

/**
 * Reads a line that may be echoed (a user name, a code) from the terminal.
 *
 * @param {string} question
 * @returns {Promise<string>}
 */
export async function readLine(question) {
  const { createInterface } = await import('node:readline/promises');
  let input, output;
  try {
    const fd = openSync('/dev/tty', 'r+');
    input = new ReadStream(fd);
    output = new WriteStream(fd);
  } catch {
    throw new Error('No terminal to ask for it: pass it as an option.');
  }
  const lines = createInterface({ input, output });
  try {
    return (await lines.question(question)).trim();
  } finally {
    lines.close();
    input.destroy();
    output.destroy();
  }
}

/**
 * All of standard input, without its final line break (`--password-stdin`), or as it is (`raw`:
 * a template for `lockit inject`).
 *
 * @param {{ raw?: boolean }} [options]
 * @returns {Promise<string>}
 */
export async function readStdin({ raw = false } = {}) {
  let text = '';
  process.stdin.setEncoding('utf8');
  for await (const chunk of process.stdin) text += chunk;
  return raw ? text : text.replace(/\r?\n$/, '');
}
