import { spawn } from 'node:child_process';

/** How the SSH agent asks the person before a key is used: OpenSSH's askpass convention. */
export interface Askpass {
  /** The program (`SSH_ASKPASS` of the shell that ran `lockit ssh-agent`, else `ssh-askpass`). */
  program: string;
  /** Display variables it needs (DISPLAY, WAYLAND_DISPLAY), from that same shell. */
  env: Record<string, string>;
}

/** A minute to answer, then the use is refused (the ssh client has long given up by then). */
export const CONFIRM_TIMEOUT_MS = 60_000;

/**
 * Asks the person whether a key may be used, the way OpenSSH's ssh-agent does for keys added
 * with `ssh-add -c`: the askpass program runs with `SSH_ASKPASS_PROMPT=confirm` and the question
 * as its one argument; an exit status of 0 with an empty answer or "yes" allows the use.
 * Anything else refuses: another answer, a failure to start the program (none installed), a
 * program that dies, or no answer within `timeoutMs`.
 *
 * The question is visible to this machine's other users while it is asked (a process's
 * arguments are), so it carries only what `ssh-add -l` shows anyway (the key's comment and
 * fingerprint) and the name of the requesting process, never the item's other content.
 */
export function confirmUse(askpass: Askpass, question: string, timeoutMs = CONFIRM_TIMEOUT_MS): Promise<boolean> {
  return new Promise((resolve) => {
    let answer = '';
    let settled = false;
    const settle = (allowed: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(allowed);
    };
    const child = spawn(askpass.program, [question], {
      env: { ...process.env, ...askpass.env, SSH_ASKPASS_PROMPT: 'confirm' },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      settle(false);
    }, timeoutMs);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (answer.length < 1024) answer += chunk;
    });
    child.on('error', () => settle(false));
    child.on('close', (code) => {
      const said = answer.trim().toLowerCase();
      settle(code === 0 && (said === '' || said === 'yes'));
    });
  });
}
