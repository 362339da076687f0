// A GeoJSON FeatureCollection read as it arrives: the text of each element of its "features" list
// is handed on as soon as the element ends, so a 40 MB collection is parsed a feature at a time
// (JSON.parse of one feature) instead of as one tree. What lies outside the features (the "type",
// a "name", a "crs") is kept as the skeleton, with the list left empty, for the caller to parse.
// Nesting is bounded as jsonTooDeep bounds it. Anything else — another shape of GeoJSON, broken
// JSON, a skeleton that grows — ends the split with `whole` set: the caller reads the file whole,
// where every such case has its sentence. Pure and browser-safe.
import { MAX_NESTING_DEPTH, nestingSentence } from './limits';

/** The skeleton beyond which the file is not a FeatureCollection worth splitting. */
const MAX_SKELETON_CHARS = 64 * 1024;
/** One feature: a tower with a long description is a few KB. */
export const MAX_FEATURE_CHARS = 16 * 1024 * 1024;

export const featureTooLargeSentence = () =>
  `A feature of the GeoJSON is longer than ${MAX_FEATURE_CHARS / (1024 * 1024)} million characters, which no site is; it was not read (the file may be damaged or made to harm). Export it again from the mapping tool.`;

export class FeatureSplitter {
  private depth = 0;
  private inString = false;
  private escaped = false;
  private skeleton = '';
  /** Inside the top-level object's "features" list. */
  private inFeatures = false;
  /** The element being read: its parts so far, or null between elements. */
  private element: string[] | null = null;
  private elementLength = 0;
  /** The element is a primitive (null, a number…): it ends at the next , or ] of the list. */
  private primitive = false;
  /** Why the text cannot be split (then `whole`), or a limit's sentence (then `problem`). */
  whole = false;
  problem: string | null = null;

  constructor(private readonly onFeature: (text: string) => void) {}

  get stopped(): boolean {
    return this.whole || this.problem !== null;
  }

  push(text: string): void {
    if (this.stopped) return;
    let keptFrom = 0;
    const keep = (end: number) => {
      if (this.element) {
        this.element.push(text.slice(keptFrom, end));
        this.elementLength += end - keptFrom;
      } else this.skeleton += text.slice(keptFrom, end);
      keptFrom = end;
    };
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === 0x5c) this.escaped = true;
        else if (c === 0x22) this.inString = false;
        continue;
      }
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
      if (this.inFeatures && this.depth === 1 && this.element === null) {
        // Between two elements of the list: its commas are left out of the skeleton, an element starts.
        // Only white space lies between two elements: none of it is kept.
        if (c === 0x2c) {
          this.skeleton += text.slice(keptFrom, i).trim();
          keptFrom = i + 1;
          continue;
        }
        if (c !== 0x5d) {
          this.skeleton += text.slice(keptFrom, i).trim();
          keptFrom = i;
          this.element = [];
          this.elementLength = 0;
          this.primitive = c !== 0x7b && c !== 0x5b;
        }
      }
      if (this.primitive && this.depth === 1 && (c === 0x2c || c === 0x5d)) {
        this.endElement(text, keptFrom, i);
        keptFrom = i;
        if (c === 0x2c) keptFrom = i + 1;
        if (c === 0x5d) this.closeList();
        continue;
      }
      if (c === 0x22) this.inString = true;
      else if (c === 0x7b || c === 0x5b) {
        // Inside the list depths are counted from it (see below): one level more in the file.
        if (++this.depth + (this.inFeatures ? 1 : 0) > MAX_NESTING_DEPTH) {
          this.problem = nestingSentence('GeoJSON');
          return;
        }
        if (c === 0x5b && this.depth === 2 && !this.inFeatures && this.element === null) {
          keep(i + 1);
          if (/"features"\s*:\s*\[$/.test(this.skeleton.slice(-64))) {
            this.inFeatures = true;
            // The list's own depth is counted as 1 from here, so its elements open at depth 2.
            this.depth = 1;
          }
        }
      } else if (c === 0x7d || c === 0x5d) {
        this.depth--;
        if (this.element && !this.primitive && this.depth === 1) {
          this.endElement(text, keptFrom, i + 1);
          keptFrom = i + 1;
        } else if (this.inFeatures && this.depth === 0 && c === 0x5d) {
          keep(i);
          this.closeList();
        }
      }
      if (this.element && this.elementLength + (i - keptFrom) > MAX_FEATURE_CHARS) {
        this.problem = featureTooLargeSentence();
        return;
      }
    }
    keep(text.length);
    if (this.skeleton.length > MAX_SKELETON_CHARS) this.whole = true;
  }

  private endElement(text: string, from: number, end: number): void {
    this.element!.push(text.slice(from, end));
    const element = this.element!.join('');
    this.element = null;
    this.primitive = false;
    this.onFeature(element);
  }

  /** The features list's ] : back to the top-level object's depth. */
  private closeList(): void {
    this.inFeatures = false;
    this.depth = 1;
  }

  /** The skeleton once the text has ended, or null when it did not end as JSON must. */
  end(): string | null {
    if (this.stopped || this.inString || this.depth !== 0 || this.element !== null) {
      if (!this.stopped) this.whole = true;
      return null;
    }
    return this.skeleton;
  }
}
