// Serves the built renderer (dist/renderer) read-only. A URL path maps to a file only when the
// resolved real path stays inside the root: encoded dots, backslashes, NUL bytes and symlinks that
// point outside are all refused. Files hold no data, so they need no token.
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
  '.webmanifest': 'application/manifest+json',
};

export function contentTypeFor(path: string): string {
  return CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

export type StaticLookup =
  | { kind: 'file'; path: string; size: number; contentType: string }
  | { kind: 'bad-request' }
  | { kind: 'not-found' };

/**
 * Finds the file for a URL path (the part before `?`). `/` is index.html. Returns not-found for
 * anything outside the root, so a probe learns nothing about the rest of the disk.
 */
export async function lookupStatic(root: string, urlPath: string): Promise<StaticLookup> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return { kind: 'bad-request' };
  }
  if (!decoded.startsWith('/') || decoded.includes('\0') || decoded.includes('\\')) return { kind: 'bad-request' };
  const segments = decoded.split('/').filter((segment) => segment !== '');
  if (segments.some((segment) => segment === '..' || segment === '.')) return { kind: 'not-found' };
  const relative = segments.length === 0 ? 'index.html' : segments.join(sep);

  let realRoot: string;
  try {
    realRoot = await realpath(root);
  } catch {
    return { kind: 'not-found' };
  }
  const candidate = resolve(realRoot, relative);
  if (!isInside(realRoot, candidate)) return { kind: 'not-found' };
  try {
    const real = await realpath(candidate);
    if (!isInside(realRoot, real)) return { kind: 'not-found' };
    const info = await stat(real);
    if (!info.isFile()) return { kind: 'not-found' };
    return { kind: 'file', path: real, size: info.size, contentType: contentTypeFor(real) };
  } catch {
    return { kind: 'not-found' };
  }
}

function isInside(root: string, path: string): boolean {
  return path.startsWith(root.endsWith(sep) ? root : root + sep);
}

export function openStatic(path: string): NodeJS.ReadableStream {
  return createReadStream(path);
}
