// The coordinates under the cursor, as the map shows and copies them: decimal and degrees, minutes,
// seconds, with the hemisphere letters, and a longitude from a world copy brought back into ±180.
import { describe, expect, it } from 'vitest';
import { formatPosition } from '../../renderer/src/shared/coords';

describe('showing a position', () => {
  it('gives decimal degrees and DMS with hemispheres', () => {
    expect(formatPosition(45.123456, -111.5)).toEqual({ decimal: '45.123456, -111.5', dms: '45°07\'24.4"N 111°30\'00.0"W' });
    expect(formatPosition(-33.8568, 151.2153)).toEqual({ decimal: '-33.8568, 151.2153', dms: '33°51\'24.5"S 151°12\'55.1"E' });
    expect(formatPosition(0, 0).dms).toBe('0°00\'00.0"N 0°00\'00.0"E');
  });

  it('rounds seconds that reach 60 into the next minute, and wraps world copies', () => {
    expect(formatPosition(10.999999, 20).dms).toBe('11°00\'00.0"N 20°00\'00.0"E');
    expect(formatPosition(40, 190).decimal).toBe('40, -170');
    expect(formatPosition(40, -540).dms).toBe('40°00\'00.0"N 180°00\'00.0"W');
  });
});
