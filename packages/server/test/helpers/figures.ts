import { appendFileSync } from 'node:fs';
import { TEST_DB_KIND } from './test-database';

/**
 * Tests print nothing. With LOCKIT_TEST_FIGURES=<file>, they append the figures they measured
 * (one JSON line each) so docs/operations.md can quote a real run.
 */
export function recordFigures(test: string, figures: Record<string, unknown>): void {
  const file = process.env.LOCKIT_TEST_FIGURES;
  if (file) appendFileSync(file, `${JSON.stringify({ test, database: TEST_DB_KIND, ...figures })}\n`);
}
