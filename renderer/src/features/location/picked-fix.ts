// A position from My location as the site form takes it: its accuracy and how it was measured.
import { GPS_QUALITY_LABELS } from '../../../../electron/shared/contract/gps';
import { roundCoordinate } from '../../../../electron/shared/validation/rules';
import type { PickedFix } from '../../shared/ui/ui-context';
import type { StakeResult } from './stake-panel';

export function pickedFix(result: StakeResult): PickedFix {
  const at = { lat: roundCoordinate(result.lat), lon: roundCoordinate(result.lon) };
  return { accuracyM: result.measurement.accuracyM, qualityLabel: GPS_QUALITY_LABELS[result.measurement.quality], measurement: result.measurement, at };
}
