// What the outbox does after a failed call, decided in one place from the CallError's facts and
// whether the entry is safe to send twice. Order matters: a refused key or quota pauses the whole
// profile; an ambiguous failure of a create or an emailing reprocess goes to review (never resent
// silently); transport trouble is retried with exponential backoff and full jitter; anything the
// service rejected deliberately fails and waits for the user.
// A server exception (a 500 text/plain exception from HTTP GET/POST, a soap:Server/Receiver fault,
// a 500 error page) may be transient — a deadlock, a database timeout — or a bug that throws the
// same way for this input every time. "500" cannot tell them apart, the words can: each such
// answer is compared with the entry's last problem, and after SAME_ANSWER_LIMIT identical answers
// in a row (the first try and three retries) the entry fails with "The service keeps answering: …".
// Transport failures and timeouts keep the attempt limit (RetryPolicy.maxAttempts). An answer that
// says the whole service is away (a gateway's 502/503/504, 429 too many requests) is not this entry's
// fault: it costs the entry no attempt, and the engine holds the profile's queue, trying one entry at
// a time on backoff until the service takes requests again (engine.ts), rather than every entry
// burning its tries on its own clock and giving up in a five-minute maintenance window.
import { mayHaveBeenApplied, type CallError } from '../service/types';
import type { Random } from '../clock';
import { isIdempotent, type EntryHead, type OutboxEntry, type PauseInfo, type Problem } from './types';

export interface RetryPolicy {
  /** First retry waits up to this long. */
  baseMs: number;
  /** No wait is longer than this. */
  capMs: number;
  /** After this many attempts that may have reached the service, the entry fails (network 'not sent' failures do not count). */
  maxAttempts: number;
}

export const DEFAULT_RETRY: RetryPolicy = { baseMs: 2_000, capMs: 5 * 60_000, maxAttempts: 12 };

/**
 * Identical server-exception answers in a row after which the entry fails: the first try and at
 * most three retries. With DEFAULT_RETRY's backoff the retries wait at most 2 + 4 + 8 s in all.
 */
export const SAME_ANSWER_LIMIT = 4;

/** How often a started engine re-checks the service with nothing in flight (a free probe). */
export const DEFAULT_CHECK_EVERY_MS = 20_000;
/** How long closing waits for a call in flight before cancelling it (engine.stop). */
export const CLOSE_GRACE_MS = 5_000;
/**
 * The longest hold after "service unavailable" answers (queue-hold.ts; it grows from the retry policy's
 * base): a service that comes back is tried again within a minute, one request at a time.
 */
export const HOLD_CAP_MS = 60_000;

/** Probe of an unreachable service: first after ~baseMs, then doubling, never more than capMs apart. */
export const DEFAULT_PROBE: RetryPolicy = { baseMs: 1_000, capMs: 60_000, maxAttempts: Number.POSITIVE_INFINITY };

/**
 * Full jitter: a uniform wait in [0, min(cap, base · 2^(attempt-1))). Spreading retries over the
 * whole window keeps a fleet of laptops coming back online from hitting the service in step.
 */
export function backoffDelay(attempt: number, policy: Pick<RetryPolicy, 'baseMs' | 'capMs'>, random: Random): number {
  const exponent = Math.max(0, Math.min(attempt - 1, 30));
  const window = Math.min(policy.capMs, policy.baseMs * 2 ** exponent);
  return Math.floor(random() * window);
}

/** Invalid-input fields that mean the profile, not the request, is wrong. */
const PROFILE_FIELDS = new Set(['key', 'account', 'baseUrl', 'servicePath', 'namespace', 'binding']);

export type Decision =
  /** The profile's queue stops until the user fixes the key, gets more calls, or retries. */
  | { state: 'paused'; problem: Problem; pause: Omit<PauseInfo, 'since'> }
  /** May have been applied and resending is not harmless: the user decides. */
  | { state: 'needs-review'; problem: Problem }
  /**
   * Send again later. `offline` = the service was not reached at all (probe before retrying);
   * `countsAsAttempt` false = this try is not counted towards giving up (it never left, or the service said it is away).
   */
  | { state: 'pending'; problem: Problem; offline: boolean; countsAsAttempt: boolean }
  | { state: 'failed'; problem: Problem };

export function problemOf(error: CallError): Problem {
  const problem: Problem = {
    kind: error.kind,
    message: error.message,
    detail: error.detail,
    retryable: error.retryable,
    quotaExhausted: error.quotaExhausted,
    authRejected: error.authRejected,
    mayHaveBeenApplied: mayHaveBeenApplied(error),
  };
  if (error.kind === 'invalid-input') problem.issues = error.issues.map((issue) => ({ field: issue.field, message: issue.message }));
  // A value the service's ASP.NET front refused: the form can show it beside its field.
  else if (error.refusedBy?.field) problem.issues = [{ field: error.refusedBy.field, message: error.message }];
  return problem;
}

/**
 * An answer of the service's own code that failed in a way that may pass: an exception (HTTP
 * GET/POST 500 text, soap:Server/Receiver) or a 500 error page. Not gateways (502/503/504), which
 * say the service is away, nor transport failures.
 */
export function isServerException(error: CallError): boolean {
  if (!error.retryable) return false;
  if (error.kind === 'fault') return error.source !== 'result';
  if (error.kind === 'http') return error.status >= 500 && error.status !== 502 && error.status !== 503 && error.status !== 504;
  return false;
}

/**
 * An answer that says the service as a whole cannot take requests now — a gateway's 502, 503 or 504, or
 * 429 too many requests (not an account out of API calls, which pauses) — rather than anything about
 * this request.
 */
export function isUnavailable(error: CallError): boolean {
  return error.kind === 'http' && error.retryable && !error.quotaExhausted && [429, 502, 503, 504].includes(error.status);
}

/** How many tries in a row, this one included, ended with this same answer (the entry's last problem, word for word). */
function repeatsOf(entry: OutboxEntry, problem: Problem): number {
  const last = entry.problem;
  // attempts counts this try: a first try (or the first after the user's retry) starts over.
  if (entry.attempts <= 1 || !last || last.kind !== problem.kind || last.message !== problem.message) return 1;
  return (last.repeats ?? 1) + 1;
}

/** The service's own words in an error, for "The service keeps answering: …". */
function serviceWords(error: CallError): string {
  if (error.kind === 'fault') return error.reason === '' ? 'no reason given' : error.reason;
  if (error.kind === 'http') return /\((HTTP \d{3}[^)]*)\)/.exec(error.message)?.[1] ?? `HTTP ${error.status}`;
  return error.message;
}

/** The decision for a failed call of `entry`, whose `attempts` already counts this one. */
export function decide(entry: OutboxEntry, error: CallError, policy: RetryPolicy): Decision {
  const problem = problemOf(error);
  if (error.quotaExhausted) return { state: 'paused', problem, pause: { reason: 'quota', message: error.message } };
  if (error.authRejected) return { state: 'paused', problem, pause: { reason: 'auth', message: error.message } };
  if (error.kind === 'invalid-input' && error.issues.length > 0 && error.issues.every((issue) => PROFILE_FIELDS.has(issue.field))) {
    return { state: 'paused', problem, pause: { reason: 'auth', message: error.message } };
  }
  if (problem.mayHaveBeenApplied && !isIdempotent(entry)) {
    const what = entry.kind === 'site' ? 'the new site may have been created' : 'the submission may have been reprocessed and the email sent';
    // The call's own sentence may promise a retry; for this entry there is none.
    const said = problem.message.replace(/\s*It (?:will|can) be tried again(?: later)?\./g, '').trim();
    return {
      state: 'needs-review',
      problem: {
        ...problem,
        message: `${said} It is unknown whether it reached the service, so ${what}; it was not sent again. Check the account, then confirm it or send it again.`,
      },
    };
  }
  if (error.retryable) {
    const notSent = error.kind === 'network' && error.sent === 'no';
    // The service being away is not the entry's fault: no attempt spent, no giving up over it.
    const away = isUnavailable(error);
    if (isServerException(error)) {
      problem.repeats = repeatsOf(entry, problem);
      if (problem.repeats >= SAME_ANSWER_LIMIT) {
        const page = error.kind === 'http' ? ' (an error page)' : '';
        return {
          state: 'failed',
          problem: {
            ...problem,
            kind: 'gave-up',
            retryable: false,
            message:
              `The service keeps answering: "${serviceWords(error)}"${page}. It answered that, word for word, ${problem.repeats} times in a row, ` +
              `so Sitewalk stopped trying; ${problem.mayHaveBeenApplied ? 'whether it was applied is not known (sending it again is harmless)' : 'nothing is known to have changed'}. ` +
              'Retry once the service is fixed, or change the request.',
          },
        };
      }
    }
    if (!notSent && !away && entry.attempts >= policy.maxAttempts) {
      return {
        state: 'failed',
        problem: {
          ...problem,
          kind: 'gave-up',
          message: `${problem.message} Gave up after ${entry.attempts} attempts; retry when the service is working again.`,
        },
      };
    }
    return { state: 'pending', problem, offline: notSent, countsAsAttempt: !notSent && !away };
  }
  return { state: 'failed', problem };
}

/** The problem recorded for an entry found 'sending' at start-up: the app stopped mid-call. */
export function interruptedProblem(entry: OutboxEntry | EntryHead): Problem {
  const idempotent = isIdempotent(entry);
  return {
    kind: 'interrupted',
    message: idempotent
      ? 'Sitewalk stopped while this was being sent; it will be sent again (sending it twice is harmless).'
      : entry.kind === 'site'
        ? 'Sitewalk stopped while this new site was being sent, so the service may have created it. It was not sent again: check the account, then enter the site ID it got, or send it again.'
        : 'Sitewalk stopped while this reprocess (with email) was being sent, so the email may have gone out. It was not sent again: confirm it happened, or send it again.',
    detail: 'The entry was in state "sending" when the outbox was opened: the process ended before the answer was recorded.',
    retryable: idempotent,
    quotaExhausted: false,
    authRejected: false,
    mayHaveBeenApplied: true,
  };
}
