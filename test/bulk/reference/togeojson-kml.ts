// The KML reader as it was before the streaming one (electron/shared/bulk/kml.ts): xmldom builds the
// whole DOM, @tmcw/togeojson walks it. Kept as the reference the equivalence test and the bench
// compare the streaming reader with; the table building and the KMZ half, which did not change,
// are the shared ones (electron/shared/bulk/geo.ts).
import { kmlWithFolders } from '@tmcw/togeojson';
import { DOMParser } from '@xmldom/xmldom';
import { emptyTable, featuresToTable, readKmz } from '../../../electron/shared/bulk/geo';
import type { ImportTable } from '../../../electron/shared/bulk/table';

interface GeoFeature {
  type?: unknown;
  geometry?: unknown;
  properties?: unknown;
}

interface FeatureEntry {
  feature: GeoFeature;
  folder?: string;
}

/** Reads a KML document. Never throws. */
export function referenceParseKml(text: string, format: 'kml' | 'kmz' = 'kml', notes: string[] = []): ImportTable {
  const failures: string[] = [];
  let doc: ReturnType<DOMParser['parseFromString']>;
  try {
    doc = new DOMParser({
      onError: (level, message) => {
        if (level !== 'warning') throw new Error(message);
      },
    }).parseFromString(text, 'text/xml');
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    failures.push(`The KML is not well-formed XML (${message}). Export it again from Google Earth or the mapping tool.`);
    return emptyTable(format, notes, failures);
  }
  const root = doc.documentElement;
  if (!root || root.localName !== 'kml') {
    failures.push(`The file is XML but not KML (its root element is <${root?.localName ?? '?'}>, not <kml>).`);
    return emptyTable(format, notes, failures);
  }
  const entries: FeatureEntry[] = [];
  try {
    const tree = kmlWithFolders(doc);
    collect(tree.children, undefined, entries);
  } catch (error) {
    failures.push(`The KML could not be read (${error instanceof Error ? error.message : String(error)}).`);
    return emptyTable(format, notes, failures);
  }
  if (entries.length === 0) failures.push('The KML has no placemarks.');
  return featuresToTable(entries, format, notes, failures, 'Placemark');
}

function collect(children: ReadonlyArray<{ type: string }>, folder: string | undefined, into: FeatureEntry[]): void {
  for (const child of children) {
    if (child.type === 'folder') {
      const node = child as unknown as { meta: Record<string, unknown>; children: Array<{ type: string }> };
      const name = typeof node.meta.name === 'string' && node.meta.name.trim() !== '' ? node.meta.name.trim() : folder;
      collect(node.children, name, into);
    } else if (child.type === 'Feature') {
      into.push(folder === undefined ? { feature: child as GeoFeature } : { feature: child as GeoFeature, folder });
    }
  }
}

/** Opens a KMZ with the shared KMZ half (unchanged), reading its KML the former way. */
export function referenceParseKmz(bytes: Uint8Array): Promise<ImportTable> {
  return readKmz(bytes, referenceParseKml);
}
