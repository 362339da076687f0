// The XML push of a reprocessed EUS submission to the account's EUS API URL (spec §4.3.3). One POST
// per reprocess with its own time limit; the outcome (status or error, duration) is written back to
// the push record so /_sandbox/pushes shows every delivery attempt.
import type { PushAttempt, SandboxSubmission } from './state';
import { escapeText } from './xml';

export const PUSH_TIMEOUT_MS = 5_000;

export function submissionXml(submission: SandboxSubmission, namespace: string): string {
  const field = (name: string, value: string | number): string => `  <${name}>${escapeText(String(value))}</${name}>`;
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    `<EusSubmission xmlns="${escapeText(namespace).replace(/"/g, '&quot;')}">`,
    field('ProcessId', submission.processId),
    field('Account', submission.account),
    field('Name', submission.name),
    field('Address', submission.address),
    field('Latitude', submission.latitude),
    field('Longitude', submission.longitude),
    field('MultiCoverageId', submission.multiMapId),
    field('SubmittedAt', submission.submittedAt),
    field('ProcessedAt', submission.processedAt),
    field('ReprocessCount', submission.reprocessHistory.length),
    '</EusSubmission>',
    '',
  ].join('\n');
}

/** Sends one push; never throws. Resolves with what to record on the attempt. */
export async function deliverPush(
  push: PushAttempt,
  body: string,
  signal: AbortSignal,
): Promise<Pick<PushAttempt, 'status' | 'error' | 'durationMs'>> {
  const started = performance.now();
  const timeout = AbortSignal.timeout(PUSH_TIMEOUT_MS);
  try {
    const response = await fetch(push.url, {
      method: 'POST',
      headers: { 'Content-Type': 'text/xml; charset=utf-8' },
      body,
      signal: AbortSignal.any([signal, timeout]),
      redirect: 'manual',
    });
    await response.arrayBuffer().catch(() => undefined);
    return { status: response.status, error: null, durationMs: Math.round(performance.now() - started) };
  } catch (error) {
    const reason = timeout.aborted
      ? `no answer within ${PUSH_TIMEOUT_MS} ms`
      : signal.aborted
        ? 'the sandbox closed before the push was answered'
        : describeFetchError(error);
    return { status: null, error: reason, durationMs: Math.round(performance.now() - started) };
  }
}

function describeFetchError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code) return `${cause.code}${cause.message ? `: ${cause.message}` : ''}`;
  return (error as Error).message ?? String(error);
}
