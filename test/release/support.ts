// Shared by the release tests: read electron-builder.yml the way electron-builder does (js-yaml), ask
// electron-builder's own file matcher what a `files` list lets into app.asar, and read a PNG's size.
// Nothing here re-implements electron-builder: each helper calls the library the packager itself uses.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Configuration } from 'electron-builder';
import { FileMatcher } from 'app-builder-lib/out/fileMatcher';

export const projectDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const builderConfigFile = path.join(projectDir, 'electron-builder.yml');

// js-yaml ships no types and is electron-builder's own YAML reader (a dependency of app-builder-lib).
const require = createRequire(import.meta.url);
const yaml = require('js-yaml') as { load(text: string): unknown };

/** The YAML as written, before electron-builder merges defaults into it. */
export function readBuilderYaml(): Configuration {
  const parsed = yaml.load(readFileSync(builderConfigFile, 'utf8'));
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new Error(`${builderConfigFile} does not hold a YAML mapping`);
  }
  return parsed as Configuration;
}

/** Whether electron-builder would copy `relative` (a project-relative file path) given `files`. */
export function filesFilter(files: unknown): (relative: string) => boolean {
  const patterns = (files as string[]).filter((pattern): pattern is string => typeof pattern === 'string');
  const matcher = new FileMatcher(projectDir, '/app', (pattern) => pattern, patterns);
  const filter = matcher.createFilter();
  const fileStat = { isDirectory: () => false } as unknown as Parameters<typeof filter>[1];
  return (relative) => filter(path.join(projectDir, relative), fileStat);
}

/** Width and height from a PNG's IHDR chunk; throws when the bytes are not a PNG. */
export function pngSize(bytes: Buffer): { width: number; height: number } {
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (bytes.length < 24 || !bytes.subarray(0, 8).equals(signature) || bytes.toString('latin1', 12, 16) !== 'IHDR') {
    throw new Error('not a PNG');
  }
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}
