// The lint rule that keeps the renderer by feature: a feature may use the map engine, the shared
// pieces, the API and its own folder, and of another feature only its index.ts; the map engine and
// the shared pieces know no feature; the shell (app/) may use everything.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const eslint = new ESLint({ cwd: ROOT });

/** What the layer rule says about `source` as if it were the file at `file` (relative to the root). */
async function layerProblems(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: path.join(ROOT, file) });
  return result!.messages.filter((m) => m.ruleId === 'sitewalk/layers').map((m) => m.message);
}

const uses = (specifier: string) => `import * as used from '${specifier}';\nexport const kept = used;\n`;

describe('the renderer by feature, as lint checks it', () => {
  it('refuses a feature reaching into another feature, and lets it use that feature\'s index.ts', async () => {
    expect(await layerProblems('renderer/src/features/eus/probe.ts', uses('../outbox/outbox-panel'))).toEqual([
      'features/eus may use features/outbox only through its index.ts, not its insides. ("../outbox/outbox-panel")',
    ]);
    expect(await layerProblems('renderer/src/features/eus/probe.ts', uses('../outbox'))).toEqual([]);
    expect(await layerProblems('renderer/src/features/eus/probe.ts', uses('../outbox/index'))).toEqual([]);
  });

  it('lets a feature use the map engine, the shared pieces, the API and its own folder', async () => {
    for (const specifier of ['../../map/map-view', '../../shared/format', '../../api', './eus-panel']) {
      expect(await layerProblems('renderer/src/features/eus/probe.ts', uses(specifier))).toEqual([]);
    }
  });

  it('refuses the map engine and the shared pieces any feature, even through its index.ts, and the shell', async () => {
    expect(await layerProblems('renderer/src/map/probe.ts', uses('../features/location'))).toEqual(['map/ may not import a feature (features/location); the shell composes them. ("../features/location")']);
    expect(await layerProblems('renderer/src/shared/probe.ts', uses('../features/sites/site-form'))).toEqual(['shared/ may not import a feature (features/sites); the shell composes them. ("../features/sites/site-form")']);
    expect(await layerProblems('renderer/src/map/probe.ts', uses('../app/app'))).toEqual(['renderer map/ may not import app/; it may use map, shared, api. ("../app/app")']);
  });

  it('lets the shell use any feature\'s insides', async () => {
    expect(await layerProblems('renderer/src/app/probe.ts', uses('../features/settings/settings-panel'))).toEqual([]);
  });
});
