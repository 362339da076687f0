// The page's own styles, as main.tsx loads them: what is visible, hidden or on top is what a user sees.
import 'leaflet/dist/leaflet.css';
import '../../../renderer/src/app/styles.css';
