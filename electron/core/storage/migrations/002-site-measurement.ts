// The register keeps how a site's position was measured (a receiver's averaged fix: source, fixes,
// spread, accuracy, gate, time), JSON read through the one measurement schema. Before this, only the
// outbox entry that carried it knew, and the measurement went when the history was dropped.
//
// Filling it in for a database of schema 1: a site takes the measurement of its newest finished
// entry that carried one, while the site still stands where that entry put it (within the same
// 2e-6° that shared/validation/measurement.ts calls one point) and no later finished entry moved it
// elsewhere. Unfinished entries are not folded into the register; the site view overlays them.
export const SITE_MEASUREMENT = `
ALTER TABLE sites ADD COLUMN measurement TEXT;

UPDATE sites SET measurement = (
  SELECT json_extract(measured.body, '$.payload.measurement')
  FROM outbox AS measured
  WHERE measured.lane = 'site:' || sites.local_id
    AND measured.state = 'done'
    AND json_extract(measured.body, '$.kind') = 'site'
    AND json_type(measured.body, '$.payload.measurement') = 'object'
    AND abs(json_extract(measured.body, '$.payload.latitude') - sites.latitude) < 2e-6
    AND abs(json_extract(measured.body, '$.payload.longitude') - sites.longitude) < 2e-6
    AND NOT EXISTS (
      SELECT 1 FROM outbox AS later
      WHERE later.lane = measured.lane
        AND later.state = 'done'
        AND later.seq > measured.seq
        AND (abs(coalesce(json_extract(later.body, '$.payload.latitude'), json_extract(measured.body, '$.payload.latitude')) - json_extract(measured.body, '$.payload.latitude')) >= 2e-6
          OR abs(coalesce(json_extract(later.body, '$.payload.longitude'), json_extract(measured.body, '$.payload.longitude')) - json_extract(measured.body, '$.payload.longitude')) >= 2e-6)
    )
  ORDER BY measured.seq DESC
  LIMIT 1
)
WHERE latitude IS NOT NULL AND longitude IS NOT NULL;
`;
