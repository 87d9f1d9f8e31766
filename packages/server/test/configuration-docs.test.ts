import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configEnvSchema } from '../src/config/config-schema';

const docs = readFileSync(resolve(import.meta.dirname, '../../../docs/configuration.md'), 'utf8');

describe('docs/configuration.md', () => {
  it.each(Object.keys(configEnvSchema.shape))('documents %s in its table', (variable) => {
    expect(docs).toMatch(new RegExp(`^\\| \`${variable}\` \\|`, 'm'));
  });
});
