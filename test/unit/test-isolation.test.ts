// The end-to-end files share a process per worker (vitest.e2e.config.ts), where an override of a
// fixture at a file's top level would reach every file after it; the unit and heavy files that have
// one run in projects of their own (vitest.config.ts). Both read the same finder.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures';
import { filesOverridingAtTopLevel } from '../support/isolation';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('test files that share a process', () => {
  it('no end-to-end file overrides a fixture at its top level', () => {
    expect(filesOverridingAtTopLevel(ROOT, 'test/e2e')).toEqual([]);
  });

  it('finds a top-level override, in a nested folder too, and leaves one inside a describe alone', async ({ tempDir }) => {
    await mkdir(join(tempDir, 'test', 'deep', 'er'), { recursive: true });
    await writeFile(join(tempDir, 'test', 'top.test.ts'), "import { it } from './fixtures';\nit.override('seed', 'empty');\n");
    await writeFile(join(tempDir, 'test', 'deep', 'er', 'top.test.tsx'), "test.override('appArgs', ['--port', '0']);\n");
    await writeFile(join(tempDir, 'test', 'inside.test.ts'), "describe('x', () => {\n  test.override('appArgs', []);\n});\n");
    await writeFile(join(tempDir, 'test', 'helper.ts'), "it.override('seed', 'empty');\n");
    expect(filesOverridingAtTopLevel(tempDir)).toEqual(['test/deep/er/top.test.tsx', 'test/top.test.ts']);
  });
});
