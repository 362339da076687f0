// Whether a fix can be taken as where the crew stands now: not when its own figures contradict each
// other (a fix mode with 0 satellites used, or an HDOP of 99.99 and no accuracy from the receiver),
// and not when it is old (dated before any receiver in service could date it, or a few seconds behind
// the receiver's own clock — the host's when the receiver gives no time). Pure, for every source.
import type { GpsFixView } from '../contract/gps';
import { HDOP_UNKNOWN } from './fix-values';

/** A fix this far behind the receiver's clock (or the host's) is not the current one. */
export const STALE_FIX_MS = 3_000;
/** No receiver in use today dates a current fix before this (gpsd refuses times before its build year too). */
export const EARLIEST_FIX_MS = Date.UTC(2020, 0, 1);

/** Who gave the fix and whose clock judged it, for the sentences. */
export interface FixWords {
  subject: string;
  possessive: string;
  clock: string;
}
export const RECEIVER_WORDS: FixWords = { subject: 'The receiver', possessive: 'The receiver’s', clock: 'its clock' };

/**
 * Why `fix` is not a current, self-consistent fix, in a sentence, or null when it is.
 * `receiverClockMs`: the newest time the receiver has stated (any message), null when it states none.
 * `nowMs`: the host's clock, used for the fix's arrival when the receiver gives no time.
 */
export function fixProblem(fix: GpsFixView, receiverClockMs: number | null, nowMs: number, who: FixWords = RECEIVER_WORDS): string | null {
  const satellites = fix.quality !== 'device' && fix.quality !== 'estimated' ? fix.satellites : null;
  if (satellites === 0) {
    return `${who.subject} reports a ${fix.qualityLabel.toLowerCase()} with 0 satellites used: its own figures contradict each other, so it is not taken as a fix.`;
  }
  if (fix.hdop !== null && fix.hdop >= HDOP_UNKNOWN && (fix.accuracyM === null || fix.accuracyEstimated)) {
    return `${who.subject} reports a fix with HDOP ${fix.hdop.toFixed(2)} (it does not know its satellite geometry) and no accuracy of its own, so it is not taken as a fix.`;
  }
  const fixMs = fix.fixTime !== null ? Date.parse(fix.fixTime) : Number.NaN;
  if (Number.isFinite(fixMs)) {
    if (fixMs < EARLIEST_FIX_MS) return `${who.subject} dates its fix ${fix.fixTime!.slice(0, 10)}: that is not a current fix (its clock or its data is wrong).`;
    if (receiverClockMs !== null && receiverClockMs - fixMs > STALE_FIX_MS) {
      return `${who.possessive} last fix is ${Math.round((receiverClockMs - fixMs) / 1000)} seconds older than ${who.clock}: it is not a current fix.`;
    }
    return null;
  }
  const receivedMs = Date.parse(fix.receivedAt);
  if (Number.isFinite(receivedMs) && nowMs - receivedMs > STALE_FIX_MS) {
    return `The last fix came ${Math.round((nowMs - receivedMs) / 1000)} seconds ago: it is not a current fix.`;
  }
  return null;
}
