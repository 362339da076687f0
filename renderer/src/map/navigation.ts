// The user's own navigation of the map: "Show site", "Zoom to all sites", a site chosen in the list, a
// click on a cluster, "Go there". Each fires this event on the Leaflet map before it moves it, so
// that whatever moves the map by itself (My location's follow mode) gives way to the user's choice.
// Drags and arrow keys are the map's own events; automatic moves (the first fit) do not fire it.
import type L from 'leaflet';

export const USER_NAVIGATED = 'sitewalk:navigated';

/** Says that the user asked for this move (call it just before moving the map). */
export function userNavigated(map: L.Map): void {
  map.fire(USER_NAVIGATED);
}
