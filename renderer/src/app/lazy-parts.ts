// What the first screen does not show is loaded when it is opened: the panels behind the other tabs
// (outbox, EUS, qualities, settings with its position and basemap cards) and the bulk dialogs. The
// first chunk is then the shell, the map, the site list and the site form. Their styles are in the
// one stylesheet already (app/styles.css), so nothing changes look when a part arrives.
import { lazy } from 'react';

export const OutboxPanel = lazy(() => import('../features/outbox/outbox-panel').then((m) => ({ default: m.OutboxPanel })));
export const EusPanel = lazy(() => import('../features/eus/eus-panel').then((m) => ({ default: m.EusPanel })));
export const QualitiesPanel = lazy(() => import('../features/eus/qualities-panel').then((m) => ({ default: m.QualitiesPanel })));
export const SettingsPanel = lazy(() => import('../features/settings/settings-panel').then((m) => ({ default: m.SettingsPanel })));
export const PositionSettings = lazy(() => import('../features/location/position-settings').then((m) => ({ default: m.PositionSettings })));
export const BasemapSettings = lazy(() => import('../features/basemaps/basemap-settings').then((m) => ({ default: m.BasemapSettings })));
export const ImportDialog = lazy(() => import('../features/bulk/import-dialog').then((m) => ({ default: m.ImportDialog })));
export const ExportDialog = lazy(() => import('../features/bulk/export-dialog').then((m) => ({ default: m.ExportDialog })));
export const ReprocessFileDialog = lazy(() => import('../features/bulk/reprocess-file-dialog').then((m) => ({ default: m.ReprocessFileDialog })));
