// Entry point: styles (Leaflet's own, then ours), the store bound to whichever host serves the page,
// and the React root. A page that cannot even reach its host's bridge says so instead of going blank.
import './csp';
// Before the rest: the first load starts while React, Leaflet and the panels are evaluated.
import { booted } from './boot';
import 'leaflet/dist/leaflet.css';
import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { describeError } from '../shared/store/app-store';
import { onHostLink } from '../api';
import { applyTheme, savedTheme } from '../shared/theme';
import { SelectionScope } from '../features/selection';

// The last theme before the first paint: no flash of white at night while the settings load.
applyTheme(savedTheme());

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');

try {
  const { store, error } = booted;
  if (!store) throw error;
  createRoot(root).render(
    <StrictMode>
      <SelectionScope store={store}>
        <App store={store} onHostLink={onHostLink} />
      </SelectionScope>
    </StrictMode>,
  );
} catch (error) {
  root.textContent = `Sitewalk could not start: ${describeError(error)}`;
  root.className = 'fatal';
}
