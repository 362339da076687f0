// The host's one GPS reader, following the settings: a new reader when the source, host or port
// change (and none at all for 'off' and 'device', which only report their state). Views are stamped
// with a revision that keeps growing across readers, so the page can drop a late, older answer.
import type { GpsView } from '../../shared/contract/gps';
import type { SettingsView } from '../../shared/contract/views';
import { GpsReader, type GpsReaderOptions, type GpsReaderView } from './reader';

/** Timings of the reader (tests shorten them); the defaults are the reader's. */
export type GpsTuning = Omit<GpsReaderOptions, 'source' | 'host' | 'port' | 'onView'>;

export class HostGps {
  private reader: GpsReader | null = null;
  private key = '';
  private revision = 0;
  private latest: GpsView | null = null;

  constructor(
    private readonly onView: (view: GpsView) => void,
    private readonly tuning: GpsTuning = {},
  ) {}

  /** Starts or restarts the reader when the settings that choose it changed; otherwise nothing. */
  follow(settings: Pick<SettingsView, 'gpsSource' | 'gpsHost' | 'gpsPort'>): void {
    const key = JSON.stringify([settings.gpsSource, settings.gpsHost, settings.gpsPort]);
    if (key === this.key && this.reader) return;
    this.key = key;
    this.reader?.close();
    const reader = new GpsReader({
      ...this.tuning,
      source: settings.gpsSource,
      host: settings.gpsHost,
      port: settings.gpsPort,
      onView: (view) => {
        if (this.reader === reader) this.onView(this.stamp(view));
      },
    });
    this.reader = reader;
    reader.start();
  }

  view(): GpsView {
    const current = this.reader?.view();
    if (!current) return this.latest ?? this.stamp({ source: 'off', state: 'off', message: 'My location is off.', endpoint: null, fix: null, counts: { read: 0, dropped: 0, badValues: 0 } });
    // Unchanged since the last event: the same revision, so the page takes whichever it has.
    if (this.latest && JSON.stringify({ ...this.latest, revision: 0 }) === JSON.stringify({ ...current, revision: 0 })) return this.latest;
    return this.stamp(current);
  }

  close(): void {
    this.reader?.close();
    this.reader = null;
  }

  private stamp(view: GpsReaderView): GpsView {
    this.latest = { ...view, revision: ++this.revision };
    return this.latest;
  }
}
