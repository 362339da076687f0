// "My location": a map control that, once switched on, shows where the crew is — a dot and its
// accuracy circle — follows it as it moves (until the user pans the map; "Follow" takes it up again),
// and offers "Add site here" at the fix. Source 'device' is the platform's geolocation, watched by the
// page only while the control is on; 'gpsd' and 'nmea' are read by the host, which sends 'gps'
// events (the page never opens a socket). Every state has a word and a symbol, not just a colour.
import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import L from 'leaflet';
import type { SettingsView } from '../../../../electron/shared/contract/index';
import { judgeGate } from '../../../../electron/shared/gps/gate';
import { useAppState } from '../../shared/store/app-store';
import { useUi } from '../../shared/ui/ui-context';
import { formatDecimal } from '../../shared/coords';
import { formatHeight } from '../../shared/units';
import { DEVICE_SILENT, DEVICE_SILENT_MS, deviceError, deviceShown, formatAccuracy, fromHost, NO_DEVICE_LOCATION, satellitesText, STATE_WORDS, type LocationShown } from './location-view';
import { USER_NAVIGATED } from '../../map/navigation';
import { gateReason, singleFixMeasurement } from './gate-view';
import type { StakeResult } from './stake-panel';
import { lazyPart, PartLoader } from '../../shared/ui/lazy-part';
import { panelRoom, TOP_CONTROLS } from './panel-room';
import './location.css';
import { applyGps } from './gps-slice';

/** Loaded when a staking starts (its averaging of fixes is no part of the first screen). */
const StakePanel = lazyPart(() => import('./stake-panel').then((m) => m.StakePanel));

/** "Stake here" or "Move site to my position" asked for by the site form; `target` is where the site is now. */
export interface StakeRequest {
  seq: number;
  target: { lat: number; lon: number } | null;
}

export interface LocationControlProps {
  map: L.Map | null;
  settings: SettingsView;
  /** The accuracy gate of the active profile, metres. */
  gateM: number;
  /** A position for a new site: the fix or the averaged position, and how it was measured. */
  onAddSiteHere: (result: StakeResult) => void;
  /** A staking asked for by the form, and where its result goes (null: cancelled). */
  stakeRequest: StakeRequest | null;
  onStakeDone: (result: StakeResult | null) => void;
}

const GOOD_FIX = { word: 'Good fix', icon: '◉' };
const POOR_FIX = { word: 'Fix worse than the gate', icon: '◍' };

/** Zoom the map goes to on the first fix, when it is further out (about a meter a pixel: a walk shows). */
const FIRST_FIX_ZOOM = 17;

/**
 * Whether `at` lies further from the map's centre than a tenth of its shorter side (about 60 pixels
 * on a laptop: ±17 m of multipath at the first fix's zoom stays inside, a walk leaves it in seconds).
 */
function leftTheMiddle(map: L.Map, at: L.LatLng): boolean {
  const size = map.getSize();
  return map.latLngToContainerPoint(at).distanceTo(size.divideBy(2)) > Math.min(size.x, size.y) / 10;
}

export function LocationControl({ map, settings, gateM, onAddSiteHere, stakeRequest, onStakeDone }: LocationControlProps) {
  const ui = useUi();
  const id = useId();
  const [on, setOn] = useState(false);
  const [following, setFollowing] = useState(true);
  const source = settings.gpsSource;
  const hostView = useAppState(ui.store, (s) => s.gps);
  const [device, setDevice] = useState<LocationShown | null>(null);

  // The host's view, asked for when the control is switched on (events keep it current after).
  useEffect(() => {
    if (!on || (source !== 'gpsd' && source !== 'nmea')) return;
    void ui.api.getGps().then((view) => applyGps(ui.store, view), () => undefined);
  }, [on, source, settings.gpsHost, settings.gpsPort, ui]);

  // The platform's position, watched only while the control is on.
  useEffect(() => {
    if (!on || source !== 'device') return;
    const geo = typeof navigator !== 'undefined' ? navigator.geolocation : undefined;
    if (!geo) {
      setDevice(NO_DEVICE_LOCATION);
      return;
    }
    setDevice({ state: 'connecting', message: 'Asking this device for its position…', fix: null });
    let lastAt = 0;
    const accept = (position: GeolocationPosition) => {
      lastAt = Date.now();
      setDevice(deviceShown(position, lastAt));
    };
    const options = { enableHighAccuracy: true, maximumAge: 0, timeout: 30_000 };
    const watch = geo.watchPosition(accept, (error) => setDevice(deviceError(error)), options);
    // A platform sends a watched position only when it changes: asking each second tells a still
    // device from a location service that has stopped answering, which reads "silent" like a receiver.
    const poll = setInterval(() => {
      geo.getCurrentPosition(accept, () => undefined, { ...options, timeout: DEVICE_SILENT_MS });
      if (lastAt > 0 && Date.now() - lastAt >= DEVICE_SILENT_MS) setDevice(DEVICE_SILENT);
    }, 1_000);
    return () => {
      clearInterval(poll);
      geo.clearWatch(watch);
      setDevice(null);
    };
  }, [on, source]);

  const shown: LocationShown | null = !on
    ? null
    : source === 'off'
      ? { state: 'off', message: 'My location is off in Settings. Choose where the position comes from under Position.', fix: null }
      : source === 'device'
        ? device
        : hostView && hostView.source === source
          ? fromHost(hostView)
          : { state: 'connecting', message: 'Connecting to the receiver…', fix: null };
  const fix = shown?.fix ?? null;
  const verdict = fix ? judgeGate(fix, gateM) : null;
  const reason = verdict ? gateReason(verdict, settings.heightUnit) : null;
  // "Use it anyway": asked for a worse fix, it holds while fixes stay worse, and is recorded with the site.
  const [useAnyway, setUseAnyway] = useState(false);
  const usable = verdict !== null && (verdict.pass || useAnyway);
  const measuredBy = source === 'gpsd' || source === 'nmea' ? source : 'device';
  const [staking, setStaking] = useState<{ title: string; target: { lat: number; lon: number } | null; forForm: boolean } | null>(null);
  // Once a fix is within the gate again, an earlier "Use it anyway" lapses: it was for that worse fix,
  // and a staking started now must skip bad fixes. A staking under way keeps what it began with.
  const passing = verdict?.pass === true;
  useEffect(() => {
    if (passing && !staking) setUseAnyway(false);
  }, [passing, staking]);
  const lastRequest = useRef(stakeRequest?.seq ?? 0);
  useEffect(() => {
    if (!stakeRequest || stakeRequest.seq === lastRequest.current) return;
    lastRequest.current = stakeRequest.seq;
    setOn(true);
    setStaking({ title: stakeRequest.target ? 'Move site to my position' : 'Stake here', target: stakeRequest.target, forForm: true });
  }, [stakeRequest]);
  const endStaking = (result: StakeResult | null) => {
    const current = staking;
    setStaking(null);
    if (current?.forForm) onStakeDone(result);
    else if (result) onAddSiteHere(result);
  };

  // The dot and the accuracy circle (SVG, styled by location.css with the theme's colours).
  const layers = useRef<{ circle: L.Circle; dot: L.CircleMarker } | null>(null);
  useEffect(() => {
    if (!map || !fix) return;
    const at = L.latLng(fix.lat, fix.lon);
    if (!layers.current) {
      const circle = L.circle(at, { radius: fix.accuracyM ?? 0, className: 'location-accuracy', interactive: false });
      const dot = L.circleMarker(at, { radius: 7, className: 'location-dot', interactive: false });
      circle.addTo(map);
      dot.addTo(map);
      layers.current = { circle, dot };
    } else {
      layers.current.circle.setLatLng(at).setRadius(fix.accuracyM ?? 0);
      layers.current.dot.setLatLng(at);
    }
  }, [map, fix]);
  useEffect(() => {
    if (fix || !layers.current) return;
    layers.current.circle.remove();
    layers.current.dot.remove();
    layers.current = null;
  }, [fix]);
  useEffect(
    () => () => {
      layers.current?.circle.remove();
      layers.current?.dot.remove();
      layers.current = null;
    },
    [map],
  );

  // Follow mode: the map pans with each fix; the user moving it (drag, arrow keys, "Show site", "Show
  // all sites", a site chosen in the list, a cluster, "Go there": see ../navigation) stops that.
  const centred = useRef(false);
  useEffect(() => {
    if (!map || !on) return;
    const stop = () => setFollowing(false);
    const onKey = (e: KeyboardEvent) => {
      if (['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight'].includes(e.key)) stop();
    };
    map.on('dragstart', stop);
    map.on(USER_NAVIGATED, stop);
    const container = map.getContainer();
    container.addEventListener('keydown', onKey);
    return () => {
      map.off('dragstart', stop);
      map.off(USER_NAVIGATED, stop);
      container.removeEventListener('keydown', onKey);
    };
  }, [map, on]);
  // Following taken up again ("Follow my position"): the next fix centres the map exactly.
  const resumed = useRef(true);
  useEffect(() => {
    if (!on) centred.current = false;
  }, [on]);
  useEffect(() => {
    if (!following) resumed.current = true;
  }, [following]);
  useEffect(() => {
    if (!map || !fix || !following) return;
    const at = L.latLng(fix.lat, fix.lon);
    if (!centred.current) {
      centred.current = true;
      resumed.current = false;
      map.setView(at, Math.max(map.getZoom(), FIRST_FIX_ZOOM), { animate: false });
      return;
    }
    // Standing at a tower, a receiver's fixes wander a few meters: panning to each one shook the whole
    // map every second and kept the page redrawing (measured: a quarter of a core at one fix a second).
    // So the map moves when the position has left the middle of the view, and when following resumes.
    if (!resumed.current && !leftTheMiddle(map, at)) return;
    resumed.current = false;
    map.panTo(at, { animate: true, duration: 0.25 });
  }, [map, fix, following]);

  // The panel grows upwards from the map's bottom stack: it may use the height up to the map's top or
  // the controls there (less with the form docked and toasts lifting the stack), and scrolls beyond.
  const panelRef = useRef<HTMLElement>(null);
  useLayoutEffect(() => {
    const panel = panelRef.current;
    if (!panel || !map) return;
    const fit = () => {
      const container = map.getContainer();
      // The toolbar is the map area's (App), the rest the map wrapper's.
      const area = container.closest('.map-area') ?? container.parentElement ?? container;
      const controls = [...area.querySelectorAll(TOP_CONTROLS)].map((control) => control.getBoundingClientRect());
      panel.style.maxHeight = `${panelRoom(panel.getBoundingClientRect(), container.getBoundingClientRect().top, controls, 120)}px`;
    };
    fit();
    window.addEventListener('resize', fit);
    return () => window.removeEventListener('resize', fit);
  });

  // A fix says at once whether it may place a site: "Good fix", or "Fix worse than the gate".
  const words = !shown ? null : verdict ? (verdict.pass ? GOOD_FIX : POOR_FIX) : STATE_WORDS[shown.state];
  const sats = fix ? satellitesText(fix) : null;
  // Position "Off" means no My location on the map at all (Settings → Position says so); a staking
  // already under way still shows its panel, which says the position is off.
  if (source === 'off' && !staking) return null;
  return (
    <div className="location-control" data-testid="location-control" data-state={shown?.state ?? 'closed'} data-gate={verdict ? (verdict.pass ? 'pass' : 'fail') : 'none'} data-following={on && following ? 'true' : 'false'}>
      <button
        type="button"
        aria-pressed={on}
        aria-controls={on ? `${id}-panel` : undefined}
        onClick={() => {
          if (on && staking) endStaking(null);
          setOn(!on);
          setFollowing(true);
          setUseAnyway(false);
        }}
      >
        <span aria-hidden="true" className="location-button-icon">
          ◎
        </span>{' '}
        My location
      </button>
      {shown && words && (
        <section ref={panelRef} id={`${id}-panel`} className="location-panel" aria-label="My location">
          <p className="location-state" role="status">
            <span className="location-icon" aria-hidden="true">
              {words.icon}
            </span>{' '}
            <strong>{words.word}</strong> <span className="location-message">{shown.message}</span>
          </p>
          {fix && !staking && (
            <dl className="location-facts">
              <dt>Position</dt>
              <dd data-testid="location-position">
                {formatDecimal(fix.lat)}, {formatDecimal(fix.lon)}
              </dd>
              <dt>Accuracy</dt>
              <dd data-testid="location-accuracy">
                {formatAccuracy(fix.accuracyM, settings.heightUnit)}
                {fix.accuracyEstimated && fix.accuracyM !== null ? ' (estimated from HDOP)' : ''}
              </dd>
              <dt>Fix quality</dt>
              <dd data-testid="location-quality">{fix.qualityLabel}</dd>
              {sats && (
                <>
                  <dt>Satellites</dt>
                  <dd data-testid="location-satellites">{sats}</dd>
                </>
              )}
              {fix.hdop !== null && (
                <>
                  <dt>HDOP</dt>
                  <dd data-testid="location-hdop">{fix.hdop.toFixed(2)}</dd>
                </>
              )}
              {fix.altitudeM !== null && (
                <>
                  <dt>Altitude</dt>
                  <dd>{formatHeight(Math.round(fix.altitudeM), settings.heightUnit)}</dd>
                </>
              )}
            </dl>
          )}
          {fix && verdict && !staking && (
            <p className={verdict.pass ? 'location-gate' : 'location-gate location-gate-fail'} data-testid="location-gate" id={`${id}-gate`}>
              {verdict.pass
                ? `Within the ${gateWord(gateM, settings.heightUnit)} gate${verdict.assumption ? ` (accuracy ${verdict.assumption})` : ''}.`
                : reason}
            </p>
          )}
          {fix && verdict && (!verdict.pass || (staking && useAnyway)) && (
            <label className="checkbox location-anyway">
              <input type="checkbox" checked={useAnyway} onChange={(e) => setUseAnyway(e.target.checked)} /> Use it anyway (recorded with the site)
            </label>
          )}
          {staking && (
            <PartLoader what="the staking panel">
              <StakePanel
                title={staking.title}
                fix={fix}
                gateProblem={reason}
                source={measuredBy}
                gateM={gateM}
                overridden={useAnyway}
                unit={settings.heightUnit}
                target={staking.target}
                onAccept={(result) => endStaking(result)}
                onCancel={() => endStaking(null)}
              />
            </PartLoader>
          )}
          <div className="location-actions">
            {fix && !staking && (
              <button type="button" className="primary" disabled={!usable} aria-describedby={`${id}-gate`} onClick={() => onAddSiteHere({ lat: fix.lat, lon: fix.lon, measurement: singleFixMeasurement(fix, measuredBy, gateM, !verdict!.pass) })}>
                Add site here
              </button>
            )}
            {fix && !staking && (
              <button type="button" disabled={!usable} aria-describedby={`${id}-gate`} onClick={() => setStaking({ title: 'Stake here', target: null, forForm: false })}>
                Stake here
              </button>
            )}
            {fix && !staking && (
              <button type="button" aria-pressed={following} onClick={() => setFollowing(!following)}>
                {following ? 'Following my position' : 'Follow my position'}
              </button>
            )}
            {(shown.state === 'off' || shown.state === 'denied' || shown.state === 'unreachable' || shown.state === 'no-receiver') && (
              <button type="button" className="link-button" onClick={() => ui.openPanel('settings')}>
                Position settings
              </button>
            )}
          </div>
        </section>
      )}
    </div>
  );
}

function gateWord(meters: number, unit: SettingsView['heightUnit']): string {
  return formatAccuracy(meters, unit).slice(1);
}
