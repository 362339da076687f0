// Generated KML documents for the readers' tests: text with entities, CDATA and comments, placemarks
// of every geometry with Data and SimpleData, nested (sometimes unnamed) folders, a <Schema> before
// or after the data it types.
import fc from 'fast-check';

const character = fc.constantFrom('a', 'Z', '0', '7', ' ', ' ', '-', '.', ',', '&', '<', '>', '"', "'", 'é', '☺', '\n', '\t', '\r', ']', '#', ';', '𝄞');

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/** Text written as XML: each character literally, as a named or numeric entity, or inside CDATA. */
export const xmlText = fc
  .array(
    fc.oneof(
      fc.array(character, { maxLength: 8 }).map((chars) => chars.map((char) => ESCAPES[char] ?? char).join('')),
      character.map((char) => `&#${char.codePointAt(0)};`),
      character.map((char) => `&#x${char.codePointAt(0)!.toString(16).toUpperCase()};`),
      fc.constantFrom('&amp;', '&lt;', '&gt;', '&quot;', '&apos;'),
      // A section's text never holds "]]>" (it would end the section there): a writer splits it.
      fc
        .array(character, { maxLength: 8 })
        .map((chars) => chars.join(''))
        .filter((content) => !content.includes(']]>'))
        .map((content) => `<![CDATA[${content}]]>`),
      fc.constantFrom('<!-- note -->', '<![CDATA[<b>bold</b><br/>x]]>', '<![CDATA[]]>'),
    ),
    { maxLength: 4 },
  )
  .map((parts) => parts.join(''));

const fieldName = fc.constantFrom('height', 'Group', 'Siteid', 'pinstyle', 'name', 'description', 'Latitude', 'Folder', 'site id', 'é', '', 'visibility', 'icon');
const fieldType = fc.constantFrom('string', 'int', 'double', 'bool', 'float', 'unknown');

const coordinate = fc.oneof(
  fc.double({ min: -180, max: 180, noNaN: true }).map(String),
  fc.integer({ min: -90, max: 90 }).map(String),
  fc.constantFrom('', 'x', '1e-7', ' 5 '),
);

const geometry = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(coordinate, coordinate, fc.option(coordinate)).map(([x, y, z]) => `<Point><coordinates>${x},${y}${z === null ? '' : `,${z}`}</coordinates></Point>`) },
  { weight: 1, arbitrary: fc.constant('') },
  { weight: 1, arbitrary: fc.constant('<LineString><coordinates>1,2 3,4</coordinates></LineString>') },
  { weight: 1, arbitrary: fc.constant('<Polygon><outerBoundaryIs><LinearRing><coordinates>0,0 0,1 1,1 0,0</coordinates></LinearRing></outerBoundaryIs></Polygon>') },
  { weight: 1, arbitrary: fc.constantFrom('<MultiGeometry><Point><coordinates>1,2</coordinates></Point></MultiGeometry>', '<MultiGeometry><Point><coordinates>1,2</coordinates></Point><Point><coordinates>3,4</coordinates></Point></MultiGeometry>') },
);

const extendedData = fc.option(
  fc.array(
    fc.oneof(
      fc.tuple(fieldName, xmlText).map(([name, value]) => `<Data name="${name}"><value>${value}</value></Data>`),
      fc.tuple(fieldName, xmlText).map(([name, value]) => `<SchemaData schemaUrl="#s"><SimpleData name="${name}">${value}</SimpleData></SchemaData>`),
    ),
    { maxLength: 4 },
  ).map((items) => `<ExtendedData>${items.join('')}</ExtendedData>`),
  { nil: '' },
);

export const placemark = fc
  .tuple(fc.option(xmlText), fc.option(xmlText), extendedData, geometry, fc.boolean())
  .map(([name, description, data, shape, dataFirst]) => {
    const parts = [name === null ? '' : `<name>${name}</name>`, description === null ? '' : `<description>${description}</description>`];
    return `<Placemark>${parts.join('')}${dataFirst ? data + shape : shape + data}</Placemark>`;
  });

interface Tree {
  name: string | null;
  items: Array<string | Tree>;
}

const folder: fc.Arbitrary<Tree> = fc.letrec<{ tree: Tree }>((tie) => ({
  tree: fc.record({
    name: fc.option(xmlText),
    items: fc.array(fc.oneof({ weight: 4, arbitrary: placemark }, { weight: 1, arbitrary: tie('tree') }), { maxLength: 4 }),
  }),
})).tree;

function writeFolder(tree: Tree): string {
  const items = tree.items.map((item) => (typeof item === 'string' ? item : writeFolder(item))).join('\n');
  return `<Folder>${tree.name === null ? '' : `<name>${tree.name}</name>`}\n${items}</Folder>`;
}

const schema = fc.array(fc.tuple(fieldName, fieldType), { maxLength: 4 }).map((fields) => `<Schema id="s">${fields.map(([name, type]) => `<SimpleField name="${name}" type="${type}"/>`).join('')}</Schema>`);

export const kmlDocument = fc
  .tuple(schema, fc.array(fc.oneof(placemark, folder.map(writeFolder)), { minLength: 1, maxLength: 12 }), fc.boolean())
  .map(([fields, items, schemaLast]) => {
    const body = items.join('\n');
    return `<?xml version="1.0" encoding="UTF-8"?>\n<kml xmlns="http://www.opengis.net/kml/2.2"><Document><name>Generated</name>${schemaLast ? body + fields : fields + body}</Document></kml>`;
  });
