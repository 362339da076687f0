// The page's entry, a small chunk of its own: it starts the first load (status, settings, every site,
// the outbox) and the pin pictures' decoding as soon as it arrives, while the first screen's chunk
// (React DOM, Leaflet, the panels; preloaded by index.html beside this one) is still downloading and
// compiling; the host builds its answers meanwhile. Then it runs that chunk (main.tsx) on the store.
// Nothing here may import the first screen's modules statically, or this chunk would wait for them
// (the build checks it: renderer/vite.config.ts, bootStaysSmall).
import 'leaflet/dist/leaflet.css';
import './styles.css';
import { createAppStore } from './store';
import { getApi, holdLargeAnswers, onApiEvent } from '../api';
import { describeError } from '../shared/store/app-store';
import { preloadPinImages } from '../shared/sprites';
import { applyTheme, savedTheme } from '../shared/theme';
import { indexEarly, indexFromPositions } from '../map/pins/cluster-early';
import { workerClient } from '../map/pins/cluster-client';

// The cluster worker first of all: its thread starts with the help of this one, which is free now
// and busy for the next few hundred milliseconds (the first screen's chunk, React, the map).
workerClient();

// The last theme before the first paint: no flash of white at night while the settings load.
applyTheme(savedTheme());

function fail(root: HTMLElement, error: unknown): void {
  root.textContent = `Sitewalk could not start: ${describeError(error)}`;
  root.className = 'fatal';
}

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');

try {
  const api = getApi();
  const store = createAppStore(api, onApiEvent);
  // Many pins are clustered in a worker, built from the sites' positions (asked first: a sixth of the
  // list's bytes) and drawn from them; the list's megabytes are parsed once they are on screen.
  indexFromPositions(api, (positions) => {
    store.columns.heardPositions(positions);
    holdLargeAnswers(store.columns.positionsDrawn());
  });
  // The map (in the first screen) draws the first load's pins from its columns, whichever comes first;
  // if the positions did not start their clusters, the list does as soon as it arrives.
  store.expectMap(indexEarly);
  void store.start();
  // The pin pictures decode while the host answers: the map draws as soon as both are there.
  preloadPinImages();
  // The first screen's chunk failing to load (Sitewalk stopped meanwhile) is said, not a blank page.
  import('./main').then(({ mount }) => mount(root, store), (error: unknown) => fail(root, error));
} catch (error) {
  // No bridge to the host: the page cannot even ask it anything.
  fail(root, error);
}
