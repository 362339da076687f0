// Renders every platform's app icon from the one source, assets/icon.svg, into the git-ignored
// build/ folder where electron-builder looks: build/icons/<N>x<N>.png (the Linux set) and
// build/icon.png at 1024 px, which electron-builder turns into .icns (macOS) and .ico (Windows).
// Each PNG is written under a temporary name and renamed, so an interrupted run never leaves a
// truncated icon for the packager to pick up; a bad source fails before anything is written.
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Resvg } from '@resvg/resvg-js';

const projectDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Sizes of the hicolor theme's fixed-size folders that desktop environments ask for. */
export const LINUX_SIZES: readonly number[] = [16, 24, 32, 48, 64, 128, 256, 512];
/** macOS wants at least 512 (1024 for Retina); Windows at least 256. One 1024 serves both. */
export const MASTER_SIZE = 1024;

export const DEFAULT_SOURCE = path.join(projectDir, 'assets', 'icon.svg');
/** electron-builder's default buildResources folder. */
export const DEFAULT_OUT_DIR = path.join(projectDir, 'build');

export interface IconOptions {
  /** The SVG to render; default assets/icon.svg. */
  source?: string;
  /** The build resources folder; default build/. */
  outDir?: string;
}

export interface RenderedIcon {
  /** Absolute path of the PNG written. */
  file: string;
  /** Width and height in pixels. */
  size: number;
}

/** Bad input (missing, unreadable, not square, blank, external images): a sentence to show, nothing written. */
export class IconSourceError extends Error {
  override name = 'IconSourceError';
}

/** Where each icon goes, relative to the build resources folder. */
export function iconPlan(): { relative: string; size: number }[] {
  return [
    ...LINUX_SIZES.map((size) => ({ relative: path.join('icons', `${size}x${size}.png`), size })),
    { relative: 'icon.png', size: MASTER_SIZE },
  ];
}

export async function generateIcons(options: IconOptions = {}): Promise<RenderedIcon[]> {
  const source = path.resolve(options.source ?? DEFAULT_SOURCE);
  const outDir = path.resolve(options.outDir ?? DEFAULT_OUT_DIR);
  const svg = await readSource(source);
  checkSource(svg, source);

  // Render everything in memory first: a source that fails at one size must not leave a half-updated set.
  const rendered = iconPlan().map(({ relative, size }) => ({
    file: path.join(outDir, relative),
    size,
    png: render(svg, size, source),
  }));

  for (const icon of rendered) {
    await mkdir(path.dirname(icon.file), { recursive: true });
    const partial = `${icon.file}.${process.pid}.partial`;
    try {
      await writeFile(partial, icon.png);
      await rename(partial, icon.file);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
  }
  return rendered.map(({ file, size }) => ({ file, size }));
}

async function readSource(source: string): Promise<Buffer> {
  try {
    return await readFile(source);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new IconSourceError(`The icon source ${source} does not exist.`);
    throw new IconSourceError(`The icon source ${source} cannot be read (${code ?? String(error)}).`);
  }
}

function parse(svg: Buffer, source: string, size?: number): Resvg {
  try {
    return new Resvg(svg, {
      // The icon has no text; skipping the system font scan keeps renders fast and identical on every machine.
      font: { loadSystemFonts: false },
      fitTo: size === undefined ? { mode: 'original' } : { mode: 'width', value: size },
      shapeRendering: 2,
      logLevel: 'off',
    });
  } catch (error) {
    throw new IconSourceError(`The icon source ${source} is not a valid SVG: ${(error as Error).message}`);
  }
}

function checkSource(svg: Buffer, source: string): void {
  const resvg = parse(svg, source);
  if (resvg.width !== resvg.height) {
    throw new IconSourceError(
      `The icon source ${source} must be square; it is ${resvg.width}×${resvg.height}. App icons are square on every platform.`,
    );
  }
  const external = resvg.imagesToResolve();
  if (external.length > 0) {
    throw new IconSourceError(
      `The icon source ${source} refers to external images (${external.join(', ')}); the icon must be self-contained.`,
    );
  }
}

function render(svg: Buffer, size: number, source: string): Buffer {
  const image = parse(svg, source, size).render();
  if (image.width !== size || image.height !== size) {
    throw new IconSourceError(`Rendering ${source} at ${size} px gave ${image.width}×${image.height}.`);
  }
  if (!hasVisiblePixel(image.pixels)) {
    throw new IconSourceError(`The icon source ${source} renders fully transparent at ${size} px: nothing would show.`);
  }
  return image.asPng();
}

function hasVisiblePixel(rgba: Buffer): boolean {
  for (let alpha = 3; alpha < rgba.length; alpha += 4) {
    if (rgba[alpha] !== 0) return true;
  }
  return false;
}

async function main(argv: string[]): Promise<number> {
  let values: { source?: string; out?: string };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { source: { type: 'string' }, out: { type: 'string' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\nUsage: tsx electron/build/icons.ts [--source icon.svg] [--out build]`);
    return 2;
  }
  try {
    const icons = await generateIcons({ source: values.source, outDir: values.out });
    const cwd = process.cwd();
    for (const icon of icons) console.log(`${String(icon.size).padStart(4)} px  ${path.relative(cwd, icon.file)}`);
    return 0;
  } catch (error) {
    console.error(error instanceof IconSourceError ? error.message : error);
    return 1;
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  process.exitCode = await main(process.argv.slice(2));
}
