// Moving a site by dragging its pin: the pin stays at its proposed place while the user confirms,
// the move is queued like any other edit, and the toast that says so offers to undo it (the same edit
// back to where the site was). `preview` is what the map shows meanwhile; null once it is decided.
import { useCallback, useState } from 'react';
import type { MovePreview } from '../map/pins';
import { distanceMeters, formatDistance, siteTitle } from '../lib/format';
import { formatDecimal } from '../lib/coords';
import { issueText } from '../lib/issues';
import { moveInput, planMove, type Position } from '../lib/siteMove';
import type { Ui } from '../components/ui';

export function useMoveWithUndo(ui: Pick<Ui, 'store' | 'api' | 'call' | 'confirm' | 'toast'>): {
  preview: MovePreview | null;
  /** A pin was dropped at (lat, lng): confirm, queue, and offer to undo. */
  moveSite: (localId: string, lat: number, lng: number) => Promise<void>;
} {
  const { store, api, call, confirm, toast } = ui;
  const [preview, setPreview] = useState<MovePreview | null>(null);

  const moveSite = useCallback(
    async (localId: string, lat: number, lng: number) => {
      const site = store.getState().sites.get(localId);
      const plan = planMove(site, { lat, lng });
      if (!site || !plan.ok) {
        setPreview(null);
        if (!plan.ok && plan.message) toast(plan.message, { tone: 'error' });
        return;
      }
      const { from, to } = plan;
      setPreview({ id: localId, ...to });
      const ok = await confirm({
        title: `Move ${siteTitle(site)}?`,
        body: (
          <>
            <p>
              From {formatDecimal(from.lat)}, {formatDecimal(from.lng)}
              <br />
              to {formatDecimal(to.lat)}, {formatDecimal(to.lng)}
            </p>
            <p>That is {formatDistance(distanceMeters(from.lat, from.lng, to.lat, to.lng))}. The move is queued and sent like any other change.</p>
          </>
        ),
        confirmLabel: 'Move site',
      });
      if (!ok) {
        setPreview(null);
        return;
      }
      const move = (target: Position) => call(() => api.saveSite(moveInput(site, target)));
      const result = await move(to);
      setPreview(null);
      if (!result) return;
      if (!result.ok) {
        toast(`The site was not moved: ${issueText(result.issues)}`, { tone: 'error' });
        return;
      }
      store.applySite(result.value);
      toast(`Moved ${siteTitle(site)}.`, {
        tone: 'success',
        action: {
          label: 'Undo',
          run: () => {
            void move(from).then((undo) => {
              if (undo?.ok) {
                store.applySite(undo.value);
                toast(`${siteTitle(site)} is back where it was.`, { tone: 'info' });
              } else if (undo) {
                toast(`Could not undo: ${issueText(undo.issues)}`, { tone: 'error' });
              }
            });
          },
        },
      });
    },
    [api, call, confirm, store, toast],
  );

  return { preview, moveSite };
}
