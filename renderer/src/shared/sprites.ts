// Pin pictures for the canvas layer: the SVG pins in assets/pins/ (one per pin style) combined with a
// state badge (pending clock, failed triangle, needs-review diamond), rasterised once per device pixel
// ratio into small canvases so drawing 10,000 pins is 10,000 cheap drawImage calls.
// The state is carried by the badge's shape, never by colour alone. On a dark map the pins get a thin
// light halo (a set per halo colour), so their dark outlines do not vanish into the background.
import pin1 from '../../../assets/pins/pin-1.svg';
import pin2 from '../../../assets/pins/pin-2.svg';
import pin3 from '../../../assets/pins/pin-3.svg';
import pin4 from '../../../assets/pins/pin-4.svg';
import badgePending from '../../../assets/pins/badge-pending.svg';
import badgeFailed from '../../../assets/pins/badge-failed.svg';
import badgeReview from '../../../assets/pins/badge-review.svg';
import { PIN_STYLES, type PinStyle } from '../../../electron/shared/domain';

export type PinMark = 'none' | 'pending' | 'failed' | 'review';

export const PIN_URLS: Record<PinStyle, string> = { 1: pin1, 2: pin2, 3: pin3, 4: pin4 };
export const BADGE_URLS: Record<Exclude<PinMark, 'none'>, string> = { pending: badgePending, failed: badgeFailed, review: badgeReview };
export const PIN_COLORS: Record<PinStyle, string> = { 1: '#c62828', 2: '#1565c0', 3: '#ef6c00', 4: '#2e7d32' };
export const PIN_NAMES: Record<PinStyle, string> = { 1: 'Red', 2: 'Blue', 3: 'Orange', 4: 'Green' };

/** A pre-drawn picture and where its anchor (the point on the map) is, in CSS pixels. */
export interface Sprite {
  canvas: HTMLCanvasElement;
  width: number;
  height: number;
  anchorX: number;
  anchorY: number;
}

export interface SpriteSet {
  get(style: PinStyle, mark: PinMark, compact: boolean): Sprite;
  readonly ratio: number;
}

const MARKS: PinMark[] = ['none', 'pending', 'failed', 'review'];

async function loadImage(url: string): Promise<HTMLImageElement> {
  const img = new Image();
  img.decoding = 'async';
  img.src = url;
  await img.decode();
  return img;
}

interface Images {
  pins: Record<PinStyle, HTMLImageElement>;
  badges: Record<Exclude<PinMark, 'none'>, HTMLImageElement>;
}

let imagesPromise: Promise<Images> | null = null;

function loadImages(): Promise<Images> {
  imagesPromise ??= (async () => {
    const [p1, p2, p3, p4, bp, bf, br] = await Promise.all(
      [pin1, pin2, pin3, pin4, badgePending, badgeFailed, badgeReview].map(loadImage),
    );
    return { pins: { 1: p1!, 2: p2!, 3: p3!, 4: p4! }, badges: { pending: bp!, failed: bf!, review: br! } };
  })();
  return imagesPromise;
}

function makeCanvas(width: number, height: number, ratio: number): [HTMLCanvasElement, CanvasRenderingContext2D] {
  const canvas = document.createElement('canvas');
  canvas.width = Math.ceil(width * ratio);
  canvas.height = Math.ceil(height * ratio);
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('Canvas 2D is not available in this browser.');
  ctx.scale(ratio, ratio);
  return [canvas, ctx];
}

// Full pin: 32×44 picture, badge 18×18 overlapping its top-right; anchor at the tip.
const FULL = { width: 42, height: 50, pinX: 2, pinY: 6, badge: 18, badgeX: 24, badgeY: 0, anchorX: 18, anchorY: 48.5 };
// Compact dot for crowded views: a 14 px disc, badge 12×12; anchor at the centre.
const COMPACT = { width: 24, height: 22, r: 6.5, cx: 9, cy: 13, badge: 12, badgeX: 12, badgeY: 0 };

/** The pin's silhouette in the halo colour, drawn around where the pin goes (1.5 px each way). */
function drawHalo(ctx: CanvasRenderingContext2D, image: HTMLImageElement, halo: string, ratio: number): void {
  const [shape, shapeCtx] = makeCanvas(FULL.width, FULL.height, ratio);
  shapeCtx.drawImage(image, FULL.pinX, FULL.pinY, 32, 44);
  shapeCtx.globalCompositeOperation = 'source-in';
  shapeCtx.fillStyle = halo;
  shapeCtx.fillRect(0, 0, FULL.width, FULL.height);
  for (let k = 0; k < 8; k++) {
    const angle = (k / 8) * Math.PI * 2;
    ctx.drawImage(shape, Math.cos(angle) * 1.5, Math.sin(angle) * 1.5, FULL.width, FULL.height);
  }
}

function drawFull(images: Images, style: PinStyle, mark: PinMark, ratio: number, halo: string): Sprite {
  const [canvas, ctx] = makeCanvas(FULL.width, FULL.height, ratio);
  if (halo) drawHalo(ctx, images.pins[style], halo, ratio);
  ctx.drawImage(images.pins[style], FULL.pinX, FULL.pinY, 32, 44);
  if (mark !== 'none') ctx.drawImage(images.badges[mark], FULL.badgeX, FULL.badgeY, FULL.badge, FULL.badge);
  return { canvas, width: FULL.width, height: FULL.height, anchorX: FULL.anchorX, anchorY: FULL.anchorY };
}

function drawCompact(images: Images, style: PinStyle, mark: PinMark, ratio: number, halo: string): Sprite {
  const [canvas, ctx] = makeCanvas(COMPACT.width, COMPACT.height, ratio);
  if (halo) {
    ctx.beginPath();
    ctx.arc(COMPACT.cx, COMPACT.cy, COMPACT.r + 2.5, 0, Math.PI * 2);
    ctx.fillStyle = halo;
    ctx.fill();
  }
  ctx.beginPath();
  ctx.arc(COMPACT.cx, COMPACT.cy, COMPACT.r, 0, Math.PI * 2);
  ctx.fillStyle = PIN_COLORS[style];
  ctx.fill();
  ctx.lineWidth = 2;
  ctx.strokeStyle = '#111';
  ctx.stroke();
  if (mark !== 'none') ctx.drawImage(images.badges[mark], COMPACT.badgeX, COMPACT.badgeY, COMPACT.badge, COMPACT.badge);
  return { canvas, width: COMPACT.width, height: COMPACT.height, anchorX: COMPACT.cx, anchorY: COMPACT.cy };
}

const cache = new Map<string, Promise<SpriteSet>>();

/** Every pin picture at the given device pixel ratio, with a halo of that colour ('' for none); built once per pair. */
export function loadSprites(ratio: number = globalThis.devicePixelRatio || 1, halo = ''): Promise<SpriteSet> {
  const key = `${ratio} ${halo}`;
  let set = cache.get(key);
  if (!set) {
    set = loadImages().then((images) => {
      const table = new Map<string, Sprite>();
      for (const style of PIN_STYLES) {
        for (const mark of MARKS) {
          table.set(`${style}${mark}0`, drawFull(images, style, mark, ratio, halo));
          table.set(`${style}${mark}1`, drawCompact(images, style, mark, ratio, halo));
        }
      }
      return {
        ratio,
        get(style, mark, compact) {
          return table.get(`${style}${mark}${compact ? 1 : 0}`) ?? table.get(`1none${compact ? 1 : 0}`)!;
        },
      };
    });
    cache.set(key, set);
  }
  return set;
}
