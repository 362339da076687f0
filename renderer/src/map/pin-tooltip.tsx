// What hovering over a pin or a cluster says: the site and its state, or how many sites a cluster
// holds and whether any of them waits or needs attention. Decoration for pointer users only
// (aria-hidden): the list says the same to the keyboard and screen readers.
import { SYNC_LABELS, countOf } from '../shared/format';
import { isCluster, type ClusterMark, type Pin } from './pins';

const MARK_WORDS: Record<Pin['mark'], string> = {
  none: SYNC_LABELS.synced,
  pending: SYNC_LABELS.pending,
  failed: SYNC_LABELS.failed,
  review: SYNC_LABELS['needs-review'],
};

export function PinTooltip({ item, x, y }: { item: Pin | ClusterMark; x: number; y: number }) {
  return (
    <div className="pin-tooltip" style={{ left: x, top: y }} aria-hidden="true">
      {isCluster(item) ? (
        <>
          <strong>{countOf(item.count, 'site', 'sites')}</strong>
          <span>
            {item.failed + item.review > 0 ? `${item.failed + item.review} need attention · ` : item.pending > 0 ? `${item.pending} waiting · ` : ''}
            Click to zoom in
          </span>
        </>
      ) : (
        <>
          <strong>{item.title}</strong>
          <span>{MARK_WORDS[item.mark]}</span>
        </>
      )}
    </div>
  );
}
