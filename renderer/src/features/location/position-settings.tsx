// Settings → Position: where "My location" comes from — this device's location service (read by the
// page), a gpsd daemon or a raw NMEA 0183 stream over TCP (both read by the host, at the host and
// port given here), or off. The receiver's state is shown under the form, so a wrong port is seen
// at once. Problems come back from the host as field issues, shown beside the field.
import { useId, useState } from 'react';
import type { GpsSourceKind } from '../../../../electron/shared/domain';
import { GPS_SOURCE_KINDS } from '../../../../electron/shared/domain';
import { useAppState } from '../../shared/store/app-store';
import { STATE_WORDS } from './location-view';
import { InputField } from '../../shared/ui/field';
import { DEFAULT_GATE_M, GATE_RANGE, gateFor } from '../../../../electron/shared/gps/gate';
import { SettingsCard, useSettingsSave } from '../../shared/ui/settings-card';
import { useUi } from '../../shared/ui/ui-context';
import { applyGps } from './gps-slice';

const SOURCE_LABELS: Record<GpsSourceKind, { label: string; hint: string }> = {
  off: { label: 'Off', hint: 'No My location control on the map.' },
  device: { label: 'This device’s location service', hint: 'The operating system’s or browser’s location (Wi-Fi, a built-in GPS). The page asks for permission the first time.' },
  gpsd: { label: 'gpsd (a GPS receiver shared by the gpsd daemon)', hint: 'gpsd’s JSON over TCP; gpsd on this computer listens at 127.0.0.1, port 2947.' },
  nmea: { label: 'NMEA 0183 stream over TCP', hint: 'A receiver or bridge (ser2net, a phone app, an RTK rover) that sends raw NMEA sentences on a TCP port.' },
};

type PositionField = 'gpsSource' | 'gpsHost' | 'gpsPort' | 'gpsGate';

export function PositionSettings() {
  const ui = useUi();
  const id = useId();
  const settings = useAppState(ui.store, (s) => s.settings);
  const gps = useAppState(ui.store, (s) => s.gps);
  const [source, setSource] = useState<GpsSourceKind>(settings.gpsSource);
  const [host, setHost] = useState(settings.gpsHost);
  const [portText, setPortText] = useState(String(settings.gpsPort));
  // The accuracy gate belongs to the active profile (a crew with an RTK rover on one account, phones on another).
  const profile = useAppState(ui.store, (s) => s.profiles.find((p) => p.active) ?? null);
  const [gateText, setGateText] = useState(String(gateFor(settings.gpsGates, profile?.id)));
  const { issues, setIssues, wholeNumber, save } = useSettingsSave<PositionField>('Position settings saved.');
  const network = source === 'gpsd' || source === 'nmea';

  return (
    <SettingsCard
      id={id}
      title="Position"
      submitLabel="Save position settings"
      onSubmit={async () => {
        // A port only for a receiver on the network (undefined otherwise).
        const port = network ? wholeNumber('gpsPort', portText, 1, 65535, 'The port is a whole number from 1 to 65535 (gpsd’s is 2947).') : undefined;
        if (port === null) return;
        const gate = Number(gateText.trim().replace(',', '.'));
        if (source !== 'off' && (!/^\d+([.,]\d+)?$/.test(gateText.trim()) || gate < GATE_RANGE.min || gate > GATE_RANGE.max)) {
          setIssues({ gpsGate: `The accuracy gate is a number of meters from ${GATE_RANGE.min} to ${GATE_RANGE.max}, like 5 (or 0.05 for an RTK receiver).` });
          return;
        }
        const gatePatch = source !== 'off' && profile ? { gpsGate: { profileId: profile.id, meters: gate } } : {};
        const patch = { ...(port !== undefined ? { gpsSource: source, gpsHost: host.trim(), gpsPort: port } : { gpsSource: source }), ...gatePatch };
        const saved = await save(patch);
        // A receiver just set: its state shows under the form at once.
        if (saved && network) void ui.api.getGps().then((view) => applyGps(ui.store, view), () => undefined);
      }}
    >
      <fieldset className="unit-choice">
        <legend>Where My location comes from</legend>
        {GPS_SOURCE_KINDS.map((kind) => (
          <label key={kind} className={source === kind ? 'checked' : ''}>
            <input type="radio" name={`${id}-source`} value={kind} checked={source === kind} aria-describedby={`${id}-${kind}-hint`} onChange={() => setSource(kind)} />
            {SOURCE_LABELS[kind].label}
            <span id={`${id}-${kind}-hint`} className="hint">
              {' '}
              — {SOURCE_LABELS[kind].hint}
            </span>
          </label>
        ))}
      </fieldset>
      {network && (
        <>
          <InputField label="Receiver host" id={`${id}-host`} error={issues.gpsHost} hint="A name or IP address, without http:// or a port." value={host} spellCheck={false} autoComplete="off" onChange={(e) => setHost(e.target.value)} />
          <InputField
            label="Receiver port"
            id={`${id}-port`}
            error={issues.gpsPort}
            hint={source === 'gpsd' ? 'gpsd listens on 2947 unless told otherwise.' : 'The TCP port the stream is served on.'}
            value={portText}
            inputMode="numeric"
            autoComplete="off"
            onChange={(e) => setPortText(e.target.value)}
          />
        </>
      )}
      {source !== 'off' && (
        <InputField
          label="Accuracy gate (meters)"
          id={`${id}-gate`}
          error={issues.gpsGate}
          hint={`For the profile ${profile?.name ?? 'in use'}: a fix worse than this cannot place a site without “Use it anyway”, and is skipped when staking. Default ${DEFAULT_GATE_M} m.`}
          value={gateText}
          inputMode="decimal"
          autoComplete="off"
          onChange={(e) => setGateText(e.target.value)}
        />
      )}
      {settings.gpsSource === source && network && gps && gps.source === source && (
        <p className="form-help" role="status" data-testid="position-settings-state">
          <span aria-hidden="true">{STATE_WORDS[gps.state].icon}</span> <strong>{STATE_WORDS[gps.state].word}:</strong> {gps.message}
          {gps.counts.dropped > 0 && ` ${gps.counts.dropped} unreadable line${gps.counts.dropped === 1 ? '' : 's'} dropped so far.`}
        </p>
      )}
    </SettingsCard>
  );
}
