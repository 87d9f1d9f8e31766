import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { EXPECTED_LOGINS, loginQuadruples } from './expected-logins';

it('the expected logins are exactly the ones SOURCES.md lists', () => {
  const sources = readFileSync(new URL('../../../../shared/fixtures/imports/SOURCES.md', import.meta.url), 'utf8');
  const block = /```jsonl\n([\s\S]*?)```/.exec(sources)?.[1] ?? '';
  const listed = block
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { name: string; url: string; username: string; password: string });
  expect(listed).toHaveLength(12);
  expect(EXPECTED_LOGINS).toEqual(listed);
  expect(loginQuadruples(listed.map((login) => ({ ...login, type: 'login', urls: login.url ? [login.url] : [] })))).toEqual(
    listed,
  );
});
