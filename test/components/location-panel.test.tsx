// The "My location" panel: a word and a symbol for each state of the receiver the host reads, the
// fix's figures once there is one, and what each state enables: "Add site here" and "Stake here" only
// for a fix within the profile's accuracy gate (or one the user chose to use anyway), the way to the
// Position settings when nothing can be read. Rendered without a map (the panel is what is tested).
import { describe, expect, it } from 'vitest';
import type { GpsFixView, GpsView, SettingsView } from '../../electron/shared/contract/index';
import { DEFAULT_SETTINGS } from '../../electron/shared/contract/index';
import { LocationControl } from '../../renderer/src/features/location/location-control';
import type { StakeResult } from '../../renderer/src/features/location/stake-panel';
import { renderWithHost } from './support/shell';
import type { FakeHost } from './support/fake-host';
import { TestMap } from './support/test-map';
import type L from 'leaflet';

const GPSD: SettingsView = { ...DEFAULT_SETTINGS, gpsSource: 'gpsd', gpsHost: '127.0.0.1', gpsPort: 2947 };

function fix(patch: Partial<GpsFixView> = {}): GpsFixView {
  const now = new Date().toISOString();
  return { lat: 45.123456, lon: -93.654321, accuracyM: 2.4, accuracyEstimated: false, altitudeM: 250, quality: 'dgps', qualityLabel: 'DGPS fix (corrected)', satellites: 9, satellitesSeen: 12, hdop: 0.9, fixTime: now, receivedAt: now, epoch: now, ...patch };
}

function view(host: FakeHost, state: GpsView['state'], message: string, withFix: GpsFixView | null = null): GpsView {
  return { source: 'gpsd', state, message, endpoint: '127.0.0.1:2947', fix: withFix, counts: { read: 10, dropped: 0, badValues: 0 }, revision: host.nextRevision() };
}

/**
 * `width`: the map's bottom strip as wide as that (beside the docked form at 1024×640 it is about 260
 * px), marked narrow at 31rem or less as the map marks it (map-bottom.test.tsx).
 */
async function openPanel(settings: SettingsView = GPSD, gateM = 5, width?: number) {
  const added: StakeResult[] = [];
  const control = () => <LocationControl map={null} settings={settings} gateM={gateM} onAddSiteHere={(r) => added.push(r)} stakeRequest={null} onStakeDone={() => undefined} />;
  const rendered = await renderWithHost({ settings }, () =>
    width === undefined ? (
      control()
    ) : (
      <div style={{ position: 'relative', width: width + 22, height: 600 }}>
        <div className="map-bottom" data-narrow={width <= 496 ? '' : undefined}>
          <div className="map-stack map-stack-right">{control()}</div>
        </div>
      </div>
    ),
  );
  await rendered.screen.getByRole('button', { name: 'My location' }).click();
  const panel = rendered.screen.getByRole('region', { name: 'My location' });
  return { ...rendered, added, panel, state: panel.getByRole('status') };
}

describe('the location panel', () => {
  it('is closed until My location is pressed, then asks the host for the receiver', async () => {
    const { screen, host, state } = await openPanel();
    await expect.element(screen.getByRole('button', { name: 'My location' })).toHaveAttribute('aria-pressed', 'true');
    await expect.element(state).toHaveTextContent(/Connecting/);
    expect(host.callsOf('getGps')).toHaveLength(1);
    await screen.getByRole('button', { name: 'My location' }).click();
    await expect.element(screen.getByRole('region', { name: 'My location' })).not.toBeInTheDocument();
  });

  it('names each receiver state in words, and offers nothing to place while there is no fix', async () => {
    const { host, panel, state } = await openPanel();
    const cases: Array<[GpsView['state'], string, RegExp]> = [
      ['unreachable', 'Nothing answers at 127.0.0.1:2947.', /Not reachable/],
      ['no-receiver', 'gpsd answers but has no receiver attached.', /No receiver/],
      ['silent', 'The receiver has sent no position for 5 seconds.', /Receiver silent/],
      ['no-fix', 'The receiver reports, but has no fix yet.', /No fix/],
    ];
    for (const [name, message, word] of cases) {
      host.emit({ type: 'gps', gps: view(host, name, message) });
      await expect.element(state).toHaveTextContent(word);
      await expect.element(state).toHaveTextContent(message);
      await expect.element(panel.getByRole('button', { name: 'Add site here' })).not.toBeInTheDocument();
      await expect.element(panel.getByRole('button', { name: 'Stake here' })).not.toBeInTheDocument();
    }
  });

  it('shows the way to the Position settings when the receiver cannot be reached', async () => {
    const { host, panel, navigation } = await openPanel();
    host.emit({ type: 'gps', gps: view(host, 'unreachable', 'Nothing answers at 127.0.0.1:2947.') });
    await panel.getByRole('button', { name: 'Position settings' }).click();
    expect(navigation).toEqual([{ to: 'panel', value: 'settings' }]);
    host.emit({ type: 'gps', gps: view(host, 'no-fix', 'No fix yet.') });
    await expect.element(panel.getByRole('button', { name: 'Position settings' })).not.toBeInTheDocument();
  });

  it('is not on the map at all when Position is Off, and asks the host for nothing', async () => {
    const settings = { ...DEFAULT_SETTINGS, gpsSource: 'off' as const };
    const { screen, host } = await renderWithHost({ settings }, () => (
      <LocationControl map={null} settings={settings} gateM={5} onAddSiteHere={() => undefined} stakeRequest={null} onStakeDone={() => undefined} />
    ));
    expect(screen.getByRole('button', { name: 'My location' }).query()).toBeNull();
    expect(document.querySelector('[data-testid="location-control"]')).toBeNull();
    expect(host.callsOf('getGps')).toEqual([]);
  });

  it('shows a fix within the gate with its figures, and places a site there with how it was measured', async () => {
    const { host, panel, state, added } = await openPanel();
    host.emit({ type: 'gps', gps: view(host, 'fix', 'DGPS fix, 9 satellites.', fix()) });
    await expect.element(state).toHaveTextContent(/Good fix/);
    await expect.element(panel.getByText('45.123456, -93.654321')).toBeVisible();
    await expect.element(panel.getByText('±2.4 m')).toBeVisible();
    await expect.element(panel.getByText('DGPS fix (corrected)')).toBeVisible();
    await expect.element(panel.getByText('9 used of 12 in view')).toBeVisible();
    await expect.element(panel.getByText(/^Within the 5 m gate/)).toBeVisible();
    await expect.element(panel.getByRole('button', { name: 'Stake here' })).toBeEnabled();
    await panel.getByRole('button', { name: 'Add site here' }).click();
    expect(added).toMatchObject([{ lat: 45.123456, lon: -93.654321, measurement: { source: 'gpsd', overridden: false } }]);
  });

  it('holds back a fix worse than the gate until the user chooses to use it anyway, which is recorded', async () => {
    const { host, panel, added } = await openPanel();
    host.emit({ type: 'gps', gps: view(host, 'fix', 'GPS fix.', fix({ accuracyM: 12, quality: 'gps', qualityLabel: 'GPS fix' })) });
    await expect.element(panel.getByText('Accuracy ±12 m is worse than the 5 m gate set for this profile.')).toBeVisible();
    await expect.element(panel.getByRole('button', { name: 'Add site here' })).toBeDisabled();
    await expect.element(panel.getByRole('button', { name: 'Stake here' })).toBeDisabled();
    await panel.getByRole('checkbox', { name: /Use it anyway/ }).click();
    await expect.element(panel.getByRole('button', { name: 'Add site here' })).toBeEnabled();
    await panel.getByRole('button', { name: 'Add site here' }).click();
    expect(added).toMatchObject([{ lat: 45.123456, measurement: { overridden: true } }]);
  });

  // The issue's own epoch: a DGPS fix at ±475 m (as it came back after an outage), and a fix whose
  // receiver gives no accuracy at all (no estimate, no HDOP), never place a site unless overridden.
  it.each([
    ['±475 m', fix({ accuracyM: 475, quality: 'dgps', qualityLabel: 'DGPS fix (corrected)', satellites: 5, satellitesSeen: 5 }), 'Accuracy ±475 m is worse than the 5 m gate set for this profile.'],
    ['no accuracy', fix({ accuracyM: null, hdop: null }), 'The receiver gives no accuracy (no error estimate and no HDOP), so Sitewalk cannot tell whether this fix is within the 5 m gate.'],
  ])('never enables "Add site here" on a fix with %s without "Use it anyway"', async (_name, poor, reason) => {
    const { host, panel, added } = await openPanel();
    host.emit({ type: 'gps', gps: view(host, 'fix', 'Fix.', poor) });
    await expect.element(panel.getByText(reason)).toBeVisible();
    await expect.element(panel.getByRole('button', { name: 'Add site here' })).toBeDisabled();
    await expect.element(panel.getByRole('button', { name: 'Stake here' })).toBeDisabled();
    await panel.getByRole('checkbox', { name: /Use it anyway/ }).click();
    await panel.getByRole('button', { name: 'Add site here' }).click();
    expect(added).toMatchObject([{ lat: 45.123456, measurement: { overridden: true, accuracyM: poor.accuracyM } }]);
  });

  it('takes the place buttons away as soon as the fix is lost', async () => {
    const { host, panel, state } = await openPanel();
    host.emit({ type: 'gps', gps: view(host, 'fix', 'Fix.', fix()) });
    await expect.element(panel.getByRole('button', { name: 'Add site here' })).toBeEnabled();
    host.emit({ type: 'gps', gps: view(host, 'silent', 'The receiver has sent no position for 5 seconds.') });
    await expect.element(state).toHaveTextContent(/Receiver silent/);
    await expect.element(panel.getByRole('button', { name: 'Add site here' })).not.toBeInTheDocument();
    await expect.element(panel.getByText('45.123456, -93.654321')).not.toBeInTheDocument();
  });

  it('gives the accuracy in feet when heights are in feet', async () => {
    const { host, panel } = await openPanel({ ...GPSD, heightUnit: 'ft' });
    host.emit({ type: 'gps', gps: view(host, 'fix', 'Fix.', fix({ accuracyM: 3 })) });
    await expect.element(panel.getByText('±9.8 ft')).toBeVisible();
  });

  it("keeps the fix's source line readable by screen readers while averaging in the narrow strip beside the form, out of sight only", async () => {
    const { host, panel, state } = await openPanel(GPSD, 5, 260);
    host.emit({ type: 'gps', gps: view(host, 'fix', 'DGPS fix from gpsd at 127.0.0.1:2947, 9 satellites.', fix()) });
    await panel.getByRole('button', { name: 'Stake here' }).click();
    await expect.element(panel.getByTestId('stake-panel')).toBeVisible();
    const message = state.getByText('DGPS fix from gpsd at 127.0.0.1:2947, 9 satellites.').element() as HTMLElement;
    // It gives its room to the averaging figures...
    expect(message.getBoundingClientRect().height).toBeLessThanOrEqual(1);
    // ...and stays in the page's text a screen reader reads (display: none took it from them too).
    for (let node: HTMLElement | null = message; node; node = node.parentElement) {
      const style = getComputedStyle(node);
      expect(style.display, node.className).not.toBe('none');
      expect(style.visibility).not.toBe('hidden');
      expect(node.getAttribute('aria-hidden')).not.toBe('true');
    }
    await expect.element(state).toHaveTextContent(/DGPS fix from gpsd at 127\.0\.0\.1:2947, 9 satellites\./);
  });
});

describe('following the position on the map', () => {
  /** The map's centre, in pixels from where `at` is drawn. */
  const offCentre = (map: L.Map, at: GpsFixView) => map.latLngToContainerPoint([at.lat, at.lon]).distanceTo(map.getSize().divideBy(2));

  it('centres the first fix, keeps still while fixes wander in the middle, moves when one leaves it, and centres again when following resumes', async () => {
    let leaflet: L.Map | null = null;
    const { screen, host } = await renderWithHost({ settings: GPSD }, () => (
      <div className="map-area" style={{ width: 800, height: 500 }}>
        <TestMap
          controls={(map) => {
            leaflet = map;
            // Where nothing of the map's own covers it (the app puts it in the map's bottom stack).
            return (
              <div style={{ position: 'absolute', top: 0, left: 0, zIndex: 2000 }}>
                <LocationControl map={map} settings={GPSD} gateM={5} onAddSiteHere={() => undefined} stakeRequest={null} onStakeDone={() => undefined} />
              </div>
            );
          }}
        />
      </div>
    ));
    await expect.poll(() => leaflet).not.toBeNull();
    const map = leaflet!;
    expect(map.getSize()).toMatchObject({ x: 800, y: 500 });
    await screen.getByRole('button', { name: 'My location' }).click();
    const first = fix();
    host.emit({ type: 'gps', gps: view(host, 'fix', 'Fix.', first) });
    await expect.poll(() => offCentre(map, first)).toBeLessThan(1);
    const centre = map.getCenter();

    // A standing receiver's next fixes, a few meters off (a few pixels at this zoom): the map keeps still.
    for (const [dLat, dLon] of [[0.00003, 0], [0, -0.00004], [-0.00002, 0.00003]] as const) {
      const wander = fix({ lat: first.lat + dLat, lon: first.lon + dLon });
      host.emit({ type: 'gps', gps: view(host, 'fix', 'Fix.', wander) });
      await expect.element(screen.getByText(`${wander.lat.toFixed(6)}, ${wander.lon.toFixed(6)}`)).toBeVisible();
      expect(map.getCenter()).toEqual(centre);
    }

    // 300 m east: out of the middle, and the map follows.
    const walked = fix({ lon: first.lon + 0.004 });
    host.emit({ type: 'gps', gps: view(host, 'fix', 'Fix.', walked) });
    await expect.poll(() => offCentre(map, walked)).toBeLessThan(1);

    // Moved by hand, less than the middle's width: following stops, and taken up again it centres the
    // position exactly.
    map.fire('dragstart');
    map.panBy([40, 0], { animate: false });
    await screen.getByRole('button', { name: 'Follow my position' }).click();
    await expect.poll(() => offCentre(map, walked)).toBeLessThan(1);
  });
});
