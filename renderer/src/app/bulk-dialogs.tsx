// The bulk dialogs (import sites from a file, export them, reprocess EUS submissions from a file),
// one open at a time, as the UI context's openBulk asked. Each is loaded the first time it is opened
// and stays mounted after, so a run it follows keeps its view when the dialog is closed and opened again.
import { useState } from 'react';
import type { SiteFilter } from '../shared/site-filter';
import type { BulkDialog } from '../shared/ui/ui-context';
import { PartLoader } from '../shared/ui/lazy-part';
import { ExportDialog, ImportDialog, ReprocessFileDialog } from './lazy-parts';

export function BulkDialogs({ open, onClose, filter }: { open: BulkDialog | null; onClose: () => void; filter: SiteFilter }) {
  const [opened, setOpened] = useState<ReadonlySet<BulkDialog>>(new Set());
  if (open !== null && !opened.has(open)) setOpened(new Set([...opened, open]));
  return (
    <PartLoader what="this dialog" overlay>
      {opened.has('import') && <ImportDialog open={open === 'import'} onClose={onClose} />}
      {opened.has('export') && <ExportDialog open={open === 'export'} onClose={onClose} filter={filter} />}
      {opened.has('reprocess') && <ReprocessFileDialog open={open === 'reprocess'} onClose={onClose} />}
    </PartLoader>
  );
}
