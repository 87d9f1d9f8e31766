// Prints the figures the suites recorded (LOCKIT_TEST_FIGURES, one JSON line per test) as
// one readable line each, so a CI log shows the counts behind the abuse and crash tests.
import { existsSync, readFileSync } from 'node:fs';

const file = process.argv[2];
if (!file || !existsSync(file)) process.exit(0);
for (const line of readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
  const { test, database, answers: _answers, perRoute: _perRoute, ...figures } = JSON.parse(line);
  const text = Object.entries(figures)
    .map(([name, value]) => `${name} ${show(value)}`)
    .join(', ');
  console.log(`figures: ${test} on ${database}: ${text}`);
}

/** A figure as text: lists joined by "/", nested groups in braces ("quiet {p99Ms 12.3, ...}"). */
function show(value) {
  if (Array.isArray(value)) return value.map(show).join('/');
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([name, inner]) => `${name} ${show(inner)}`)
      .join(', ')}}`;
  }
  return typeof value === 'number' && !Number.isInteger(value) ? String(Math.round(value * 10) / 10) : String(value);
}
