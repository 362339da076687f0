// Shared by the bulk tests: fixture bytes exactly as on disk, and a preview of a fixture.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';
import { previewImport, type ImportOptions } from '../../electron/shared/bulk/import';
import type { ImportPreview, PreviewRow } from '../../electron/shared/bulk/preview';
import { makeTempDir } from '../support/temp';

export const FIXTURES = fileURLToPath(new URL('../fixtures/bulk/', import.meta.url));

export function fixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(`${FIXTURES}${name}`));
}

export function previewFixture(name: string, options: ImportOptions = {}): Promise<ImportPreview> {
  return previewImport(fixture(name), { fileName: name, ...options });
}

export function rowAt(preview: ImportPreview, row: number): PreviewRow {
  const found = preview.rows.find((candidate) => candidate.row === row);
  if (!found) throw new Error(`No row ${row} in the preview (rows: ${preview.rows.map((r) => r.row).join(', ')})`);
  return found;
}

export function messages(row: PreviewRow): string {
  return row.issues.map((issue) => issue.message).join(' | ');
}

/** A new data folder per call (named from `prefix`), each removed after the test that made it. */
export function dataDirsRemovedAfterEach(prefix: string): () => Promise<string> {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });
  return async () => {
    const dir = await makeTempDir(prefix);
    cleanups.push(dir.remove);
    return dir.path;
  };
}
