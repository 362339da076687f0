// Sites selected on the list that sit inside a cluster at a low zoom: the cluster says it holds them
// (a ring and "N selected" on the real map's canvas, and the count the map reports as drawn), follows
// the selection as it changes, and says nothing when none of its sites is selected.
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderWithHost, siteView } from './support/shell';
import { mapElement, TestMap } from './support/test-map';

// Four sites a few hundred metres apart, and one a degree away: fitting both, the map is at a zoom
// where the four are one cluster.
const CLOSE = ['L1', 'L2', 'L3', 'L4'].map((localId, i) => siteView({ localId, name: `Close ${i + 1}`, height: 20, latitude: 40.5 + i * 0.002, longitude: -80.25 + i * 0.002 }));
const FAR = siteView({ localId: 'L9', name: 'Far', height: 20, latitude: 41.5, longitude: -79 });

const CHOICES: Record<string, string[]> = { 'Choose two in the cluster': ['L1', 'L3'], 'Choose one in the cluster': ['L2'], 'Choose the far one': ['L9'], 'Choose none': [] };

function MapWithChosen() {
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  return (
    <div style={{ width: 800, height: 500, display: 'flex', flexDirection: 'column' }}>
      <div>
        {Object.entries(CHOICES).map(([label, ids]) => (
          <button key={label} type="button" onClick={() => setChosen(new Set(ids))}>
            {label}
          </button>
        ))}
      </div>
      <div style={{ position: 'relative', flex: 1, display: 'flex' }}>
        <TestMap chosen={chosen} />
      </div>
    </div>
  );
}

const drawn = (key: 'chosenInClusters' | 'chosenTags' | 'clustersDrawn') => () => mapElement()?.dataset[key];

describe('a cluster holding selected sites', () => {
  it('says how many of its sites are selected, and follows the selection', async () => {
    const { screen } = await renderWithHost({ sites: [...CLOSE, FAR] }, () => <MapWithChosen />);
    await expect.poll(drawn('clustersDrawn'), { message: 'the four close sites drawn as one cluster' }).toBe('1');
    expect(mapElement().dataset['chosenInClusters']).toBe('0');

    await screen.getByRole('button', { name: 'Choose two in the cluster' }).click();
    await expect.poll(drawn('chosenInClusters')).toBe('2');
    // Its "2 selected" tag is drawn (one cluster: nothing for it to cover).
    expect(mapElement().dataset['chosenTags']).toBe('1');
    await screen.getByRole('button', { name: 'Choose one in the cluster' }).click();
    await expect.poll(drawn('chosenInClusters')).toBe('1');
    // A selected site outside every cluster is the pin's own ring, not a cluster's.
    await screen.getByRole('button', { name: 'Choose the far one' }).click();
    await expect.poll(drawn('chosenInClusters')).toBe('0');
    await screen.getByRole('button', { name: 'Choose two in the cluster' }).click();
    await expect.poll(drawn('chosenInClusters')).toBe('2');
    await screen.getByRole('button', { name: 'Choose none' }).click();
    await expect.poll(drawn('chosenInClusters')).toBe('0');
    expect(mapElement().dataset['chosenTags']).toBe('0');
    expect(mapElement().dataset['clustersDrawn']).toBe('1');
  });
});
