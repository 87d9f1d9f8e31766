import Fastify from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loggerOptions, type TerminalFacts } from './logger-options';

const terminal: TerminalFacts = { stdoutIsTty: true, colors: false };
const pipe: TerminalFacts = { stdoutIsTty: false, colors: false };

function capture() {
  const chunks: string[] = [];
  return { stream: { write: (text: string) => chunks.push(text) }, text: () => chunks.join('') };
}

/** Logs one line through a real Fastify logger built from the options, and listens once. */
async function logThrough(options: ReturnType<typeof loggerOptions>) {
  const app = Fastify({ logger: options });
  app.log.info({ answer: 42 }, 'hello');
  await app.listen({ port: 0, host: '127.0.0.1' });
  await app.close();
}

afterEach(() => vi.restoreAllMocks());

describe('loggerOptions', () => {
  it('writes JSON lines to a captured stream unless LOG_FORMAT forces pretty', async () => {
    const out = capture();
    await logThrough(loggerOptions({ logLevel: 'info', logFormat: 'auto' }, out.stream, terminal));
    const hello = out
      .text()
      .split('\n')
      .find((row) => row.includes('hello'));
    expect(JSON.parse(hello!)).toMatchObject({ level: 30, answer: 42, msg: 'hello' });

    const forced = capture();
    await logThrough(loggerOptions({ logLevel: 'info', logFormat: 'pretty' }, forced.stream, pipe));
    expect(forced.text()).toMatch(/INFO.*: hello\n\s+answer: 42/);
    expect(forced.text()).not.toContain('{"level"');
  });

  it('writes readable lines to stdout on a terminal with auto, and JSON when told', async () => {
    const written: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    const auto = loggerOptions({ logLevel: 'info', logFormat: 'auto' }, undefined, terminal);
    expect(auto).toMatchObject({ stream: expect.anything() });
    (auto as { stream: { write(text: string): void } }).stream.write(`${JSON.stringify({ level: 30, time: 0, msg: 'hello' })}\n`);
    expect(written.join('')).toMatch(/INFO.*: hello\n$/);

    expect(loggerOptions({ logLevel: 'info', logFormat: 'json' }, undefined, terminal)).not.toHaveProperty('stream');
    expect(loggerOptions({ logLevel: 'info', logFormat: 'auto' }, undefined, pipe)).not.toHaveProperty('stream');
  });

  it("drops Fastify's 127.0.0.1 listening lines, so main's localhost line is the first address shown", async () => {
    const out = capture();
    await logThrough(loggerOptions({ logLevel: 'info', logFormat: 'json' }, out.stream, pipe));
    expect(out.text()).toContain('"msg":"hello"');
    expect(out.text()).not.toContain('Server listening');
  });

  it('turns logging off when silent and nobody captures it', () => {
    expect(loggerOptions({ logLevel: 'silent', logFormat: 'auto' }, undefined, terminal)).toBe(false);
  });
});
