// What the first screen does not show is loaded when it is opened: the panels behind the other tabs
// (outbox, EUS, qualities, settings with its position and basemap cards), the bulk dialogs and the
// site form. The first chunk is then the shell, the map and the site list (renderer/vite.config.ts
// finds it from the imports: anything reached only through an import() here is left out of it). Each
// is shown inside a PartLoader (shared/ui/lazy-part.tsx), which says so if its code cannot be fetched.
import { lazyPart } from '../shared/ui/lazy-part';

export const OutboxPanel = lazyPart(() => import('../features/outbox/outbox-panel').then((m) => m.OutboxPanel));
export const EusPanel = lazyPart(() => import('../features/eus/eus-panel').then((m) => m.EusPanel));
export const QualitiesPanel = lazyPart(() => import('../features/eus/qualities-panel').then((m) => m.QualitiesPanel));
export const SettingsPanel = lazyPart(() => import('../features/settings/settings-panel').then((m) => m.SettingsPanel));
export const PositionSettings = lazyPart(() => import('../features/location/position-settings').then((m) => m.PositionSettings));
export const BasemapSettings = lazyPart(() => import('../features/basemaps/basemap-settings').then((m) => m.BasemapSettings));
export const ImportDialog = lazyPart(() => import('../features/bulk/import-dialog').then((m) => m.ImportDialog));
export const ExportDialog = lazyPart(() => import('../features/bulk/export-dialog').then((m) => m.ExportDialog));
export const ReprocessFileDialog = lazyPart(() => import('../features/bulk/reprocess-file-dialog').then((m) => m.ReprocessFileDialog));
export const SiteForm = lazyPart(() => import('../features/sites/site-form').then((m) => m.SiteForm));
