import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The architecture rules of eslint.config.js catch what they promise. Each case lints a small
 * source through ESLint's Node API with the repository's real config, under a path inside the
 * real folders (the file need not exist), so the real zones, resolver and aliases apply.
 * A cycle needs two files on disk: those live in fixtures/, which the main lint run ignores.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CONFIG = `${ROOT}eslint.config.js`;

const eslint = new ESLint({ cwd: ROOT, overrideConfigFile: CONFIG });

interface Finding {
  rule: string | null;
  message: string;
}

async function lint(filePath: string, code: string): Promise<Finding[]> {
  const [result] = await eslint.lintText(code, { filePath: `${ROOT}${filePath}` });
  return (result?.messages ?? []).map((m) => ({ rule: m.ruleId, message: m.message }));
}

// Following imports through the whole server for no-cycle takes a few seconds on a busy machine.
const SLOW = 60_000;

describe('Import cycles', () => {
  it(
    'fail both files of a cycle',
    async () => {
      // The fixtures are ignored by `eslint .`; here the ignores are switched off to lint them.
      const withFixtures = new ESLint({ cwd: ROOT, overrideConfigFile: CONFIG, ignore: false });
      const results = await withFixtures.lintFiles([
        'tools/lint/fixtures/cycle/session.ts',
        'tools/lint/fixtures/cycle/refresh.ts',
      ]);

      expect(results).toHaveLength(2);
      for (const result of results) {
        expect(result.messages.map((m) => m.ruleId)).toEqual(['import/no-cycle']);
      }
    },
    SLOW,
  );

  it('leave the fixtures out of the main lint run', async () => {
    expect(await eslint.isPathIgnored(`${ROOT}tools/lint/fixtures/cycle/session.ts`)).toBe(true);
  });
});

describe('Package boundaries', () => {
  it(
    'stop crypto importing the server',
    async () => {
      const findings = await lint(
        'packages/crypto/src/lint-fixture.ts',
        "import { buildApp } from '@lockit/server';\nexport const app = buildApp;\n",
      );
      expect(findings).toEqual([
        { rule: 'import/no-restricted-paths', message: expect.stringMatching(/@lockit\/crypto imports neither .* the server/) },
      ]);
    },
    SLOW,
  );

  it('stop crypto importing the contract', async () => {
    const findings = await lint(
      'packages/crypto/src/lint-fixture.ts',
      "import { apiPaths } from '@lockit/contract/paths';\nexport const paths = apiPaths;\n",
    );
    expect(findings.map((f) => f.rule)).toEqual(['import/no-restricted-paths']);
  });

  it(
    'stop the contract importing the web app, by relative path too',
    async () => {
      const findings = await lint(
        'packages/contract/src/lint-fixture.ts',
        "import { apiRequest } from '../../web/src/lib/api-client';\nexport const request = apiRequest;\n",
      );
      expect(findings.map((f) => f.rule).sort()).toEqual(['import/no-relative-packages', 'import/no-restricted-paths']);
      expect(findings.find((f) => f.rule === 'import/no-restricted-paths')?.message).toMatch(
        /@lockit\/contract imports neither the server, the web app/,
      );
    },
    SLOW,
  );

  it(
    'stop the web app importing the server',
    async () => {
      const findings = await lint(
        'packages/web/src/lib/lint-fixture.ts',
        "import { buildApp } from '@lockit/server';\nexport const app = buildApp;\n",
      );
      expect(findings).toEqual([
        { rule: 'import/no-restricted-paths', message: expect.stringMatching(/the web app never imports the server/) },
      ]);
    },
    SLOW,
  );

  it('stop the web app importing the test toolkit, in its tests too', async () => {
    const findings = await lint(
      'packages/web/src/lib/lint-fixture.test.ts',
      "import * as toolkit from '@lockit/test-support';\nexport const kit = toolkit;\n",
    );
    expect(findings.map((f) => f.rule)).toEqual(['import/no-restricted-paths']);
  });

  it("let the web app's tests use the toolkit's Pwned Passwords stand-in, and only its tests", async () => {
    const code =
      "import { startPwnedStandIn } from '@lockit/test-support/pwned-stand-in';\nexport const start = startPwnedStandIn;\n";
    expect(await lint('packages/web/src/lib/lint-fixture.test.ts', code)).toEqual([]);
    const findings = await lint('packages/web/src/lib/lint-fixture.ts', code);
    expect(findings).toEqual([
      {
        rule: 'import/no-restricted-paths',
        message: expect.stringMatching(/the web app never imports the server or the test toolkit/),
      },
    ]);
  });

  it(
    'stop the test toolkit importing the server',
    async () => {
      const findings = await lint(
        'packages/test-support/src/lint-fixture.ts',
        "import { buildApp } from '@lockit/server';\nexport const app = buildApp;\n",
      );
      expect(findings.map((f) => f.rule)).toEqual(['import/no-restricted-paths']);
    },
    SLOW,
  );

  it('stop the server importing React', async () => {
    const findings = await lint(
      'packages/server/src/lint-fixture.ts',
      "import { createElement } from 'react';\nexport const element = createElement;\n",
    );
    expect(findings).toEqual([
      { rule: 'import/no-restricted-paths', message: expect.stringMatching(/the server never imports the web app or React/) },
    ]);
  });
});

describe('Client core boundaries', () => {
  it('stop the client core importing React', async () => {
    const findings = await lint(
      'packages/client-core/src/lint-fixture.ts',
      "import { useState } from 'react';\nexport const hook = useState;\n",
    );
    expect(findings.map((f) => f.rule)).toContain('import/no-restricted-paths');
    expect(findings.map((f) => f.message).join('\n')).toMatch(/client core imports neither .* React/);
  });

  it('stop the client core importing the web app', async () => {
    const findings = await lint(
      'packages/client-core/src/lint-fixture.ts',
      "import { Keyring } from '../../web/src/lib/keyring';\nexport const keyring = Keyring;\n",
    );
    expect(findings.map((f) => f.rule)).toContain('import/no-restricted-paths');
  });

  it('stop the client core using a DOM or Node global', async () => {
    const findings = await lint(
      'packages/client-core/src/lint-fixture.ts',
      "export const stored = localStorage.getItem('x');\nexport const argv = process.argv;\nexport const page = window.location.href;\n",
    );
    expect(findings.map((f) => f.rule)).toEqual(['no-restricted-globals', 'no-restricted-globals', 'no-restricted-globals']);
    expect(findings[0]?.message).toMatch(/client core uses no platform global \("localStorage"\)/);
  });

  it('stop the client core importing a Node built-in', async () => {
    const findings = await lint(
      'packages/client-core/src/lint-fixture.ts',
      "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n",
    );
    expect(findings).toEqual([{ rule: 'no-restricted-imports', message: expect.stringMatching(/imports no Node built-in/) }]);
  });

  it('let crypto import no client core', async () => {
    const findings = await lint(
      'packages/crypto/src/lint-fixture.ts',
      "import { DeviceMemory } from '@lockit/client-core';\nexport const memory = DeviceMemory;\n",
    );
    expect(findings.map((f) => f.rule)).toEqual(['import/no-restricted-paths']);
  });
});

describe('Command line boundaries', () => {
  it("stop the command line's thin client loading the client core (its start-up time)", async () => {
    const findings = await lint(
      'packages/cli/src/client/lint-fixture.js',
      "import { ApiClient } from '@lockit/client-core';\nexport const client = ApiClient;\n",
    );
    expect(findings).toEqual([
      { rule: 'import/no-restricted-paths', message: expect.stringMatching(/thin client loads no schema/) },
    ]);
  });

  it("stop the command line's thin client loading zod", async () => {
    const findings = await lint(
      'packages/cli/src/client/lint-fixture.js',
      "import { z } from 'zod';\nexport const schema = z.string();\n",
    );
    expect(findings.map((f) => f.rule)).toEqual(['import/no-restricted-paths']);
  });

  it('let the agent run the client core, and stop it importing the server', async () => {
    expect(
      await lint(
        'packages/cli/src/agent/lint-fixture.ts',
        "import { ApiClient } from '@lockit/client-core';\nexport const client = ApiClient;\n",
      ),
    ).toEqual([]);
    const findings = await lint(
      'packages/cli/src/agent/lint-fixture.ts',
      "import { buildApp } from '@lockit/server';\nexport const app = buildApp;\n",
    );
    expect(findings).toEqual([
      { rule: 'import/no-restricted-paths', message: expect.stringMatching(/command line imports neither the server/) },
    ]);
  });
});

describe('Web app boundaries', () => {
  it('stop a feature importing another feature', async () => {
    const findings = await lint(
      'packages/web/src/features/vault/lib/lint-fixture.ts',
      "import { signIn } from '@/features/auth/lib/sign-in';\nexport const start = signIn;\n",
    );
    expect(findings).toEqual([
      { rule: 'import/no-restricted-paths', message: expect.stringMatching(/a web feature imports neither another feature/) },
    ]);
  });

  it('stop a feature importing the app shell', async () => {
    const findings = await lint(
      'packages/web/src/features/profile/components/lint-fixture.tsx',
      "import { router } from '../../../app/router';\nexport const shell = router;\n",
    );
    expect(findings.map((f) => f.rule)).toEqual(['import/no-restricted-paths']);
  });

  it('stop shared web code importing a feature', async () => {
    const findings = await lint(
      'packages/web/src/lib/lint-fixture.ts',
      "import { signIn } from '../features/auth/lib/sign-in';\nexport const start = signIn;\n",
    );
    expect(findings).toEqual([
      { rule: 'import/no-restricted-paths', message: expect.stringMatching(/shared web code .* never imports a feature/) },
    ]);
  });

  it('stop shared web code loading a feature lazily', async () => {
    const findings = await lint(
      'packages/web/src/components/layout/lint-fixture.tsx',
      "export const page = () => import('@/features/auth/components/sign-in-page');\n",
    );
    expect(findings.map((f) => f.rule)).toEqual(['import/no-restricted-paths']);
  });

  it('let a test compose features, as a page test renders the whole app', async () => {
    const findings = await lint(
      'packages/web/src/features/vault/components/lint-fixture.test.tsx',
      "import { signIn } from '@/features/auth/lib/sign-in';\nexport const start = signIn;\n",
    );
    expect(findings).toEqual([]);
  });
});

describe('Deep imports', () => {
  it(
    "stop a relative import of another package's src/",
    async () => {
      const findings = await lint(
        'bench/src/benches/lint-fixture.ts',
        "import { buildApp } from '../../../packages/server/src/index';\nexport const app = buildApp;\n",
      );
      expect(findings.map((f) => f.rule)).toEqual(['import/no-relative-packages']);
    },
    SLOW,
  );

  it("stop a package specifier reaching into another package's src/", async () => {
    const findings = await lint(
      'e2e/lint-fixture.ts',
      "import { buildApp } from '@lockit/server/src/app';\nexport const app = buildApp;\n",
    );
    expect(findings).toEqual([{ rule: 'no-restricted-imports', message: expect.stringMatching(/through its `exports`/) }]);
  });
});

describe('A file within the rules', () => {
  it(
    'passes clean',
    async () => {
      const findings = await lint(
        'packages/web/src/features/vault/lib/lint-fixture.ts',
        [
          "import { apiPaths } from '@lockit/contract/paths';",
          "import { toBase64Url } from '@lockit/crypto';",
          "import { apiRequest } from '@/lib/api-client';",
          "import { NoSessionError } from '../../../lib/api-errors';",
          '',
          'export const uses = [apiPaths, toBase64Url, apiRequest, NoSessionError];',
          '',
        ].join('\n'),
      );
      expect(findings).toEqual([]);
    },
    SLOW,
  );
});
