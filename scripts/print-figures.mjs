// Prints the figures the suites recorded (LOCKIT_TEST_FIGURES, one JSON line per test) as
// one readable line each, so a CI log shows the counts behind the abuse and crash tests.
import { existsSync, readFileSync } from 'node:fs';

const file = process.argv[2];
if (!file || !existsSync(file)) process.exit(0);
for (const line of readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
  const { test, database, answers: _answers, perRoute: _perRoute, ...figures } = JSON.parse(line);
  const text = Object.entries(figures)
    .map(([name, value]) => `${name} ${Array.isArray(value) ? value.join('/') : value}`)
    .join(', ');
  console.log(`figures: ${test} on ${database}: ${text}`);
}
