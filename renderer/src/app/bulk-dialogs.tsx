// The bulk dialogs (import sites from a file, export them, reprocess EUS submissions from a file),
// one open at a time, as the UI context's openBulk asked.
import type { SiteFilter } from '../shared/site-filter';
import type { BulkDialog } from '../shared/ui/ui-context';
import { ImportDialog } from '../features/bulk/import-dialog';
import { ExportDialog } from '../features/bulk/export-dialog';
import { ReprocessFileDialog } from '../features/bulk/reprocess-file-dialog';

export function BulkDialogs({ open, onClose, filter }: { open: BulkDialog | null; onClose: () => void; filter: SiteFilter }) {
  return (
    <>
      <ImportDialog open={open === 'import'} onClose={onClose} />
      <ExportDialog open={open === 'export'} onClose={onClose} filter={filter} />
      <ReprocessFileDialog open={open === 'reprocess'} onClose={onClose} />
    </>
  );
}
