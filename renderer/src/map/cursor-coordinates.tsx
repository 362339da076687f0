// The coordinates under the cursor, decimal and DMS, with copy buttons reachable from the keyboard.
// A mouse user reads the spot under the pointer (the last one stays when the pointer leaves the map,
// so it can be copied); a keyboard user who pans with the arrows reads the map's centre.
// Compact by default (one line: decimal and its copy button) so it hides few pins; DMS opens on press.
import { useEffect, useId, useState } from 'react';
import type L from 'leaflet';
import { formatPosition } from '../shared/coords';

type Source = 'cursor' | 'centre';

export function CursorCoordinates({ map }: { map: L.Map | null }) {
  const [at, setAt] = useState<{ lat: number; lng: number; source: Source } | null>(null);
  const [copied, setCopied] = useState<string>('');
  const [showDms, setShowDms] = useState(false);
  const dmsId = useId();

  useEffect(() => {
    if (!map) return;
    let frame = 0;
    let pending: L.LatLng | null = null;
    let source: Source = 'centre';
    const showCentre = () => {
      const c = map.getCenter();
      setAt({ lat: c.lat, lng: c.lng, source: 'centre' });
    };
    const onMove = (e: L.LeafletMouseEvent) => {
      source = 'cursor';
      pending = e.latlng;
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        if (pending) setAt({ lat: pending.lat, lng: pending.lng, source: 'cursor' });
      });
    };
    const onKey = () => {
      source = 'centre';
    };
    const onMoveEnd = () => {
      if (source === 'centre') showCentre();
    };
    showCentre();
    const container = map.getContainer();
    map.on('mousemove', onMove);
    map.on('moveend', onMoveEnd);
    container.addEventListener('keydown', onKey);
    return () => {
      cancelAnimationFrame(frame);
      map.off('mousemove', onMove);
      map.off('moveend', onMoveEnd);
      container.removeEventListener('keydown', onKey);
    };
  }, [map]);

  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopied(''), 2500);
    return () => clearTimeout(t);
  }, [copied]);

  if (!at) return null;
  const text = formatPosition(at.lat, at.lng);
  const copy = async (value: string, what: string) => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(`Copied ${what}`);
    } catch {
      setCopied('Could not copy: select the text instead');
    }
  };
  return (
    <section className="map-coords" aria-label="Coordinates" data-testid="cursor-coordinates" data-open={showDms}>
      <span className="map-coords-source">{at.source === 'cursor' ? 'Cursor' : 'Map centre'}</span>
      <span className="map-coords-value" data-testid="coords-decimal">
        {text.decimal}
      </span>
      <button type="button" onClick={() => void copy(text.decimal, 'decimal coordinates')}>
        {/* "Copy" in sight (the value beside it says which), the whole name for screen readers. */}
        Copy<span className="visually-hidden"> decimal</span>
      </button>
      <button type="button" className="map-coords-more" aria-expanded={showDms} aria-controls={dmsId} onClick={() => setShowDms(!showDms)}>
        DMS
      </button>
      {/* Kept in the page when closed, so the DMS text is always there to read out or copy once opened. */}
      <span id={dmsId} className="map-coords-dms" hidden={!showDms}>
        <span className="map-coords-value" data-testid="coords-dms">
          {text.dms}
        </span>
        <button type="button" onClick={() => void copy(text.dms, 'DMS coordinates')}>
          Copy<span className="visually-hidden"> DMS</span>
        </button>
      </span>
      <span className="map-coords-copied" role="status">
        {copied}
      </span>
    </section>
  );
}
