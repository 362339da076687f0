// The one answer shape of every call that can refuse its input (the core's services, the contract,
// the validation schemas, the bulk pipeline), and the one way to turn a thrown value into text.
import type { InputIssue } from './domain';

export type { InputIssue };

/** Done, or the input's issues (nothing was queued or changed). */
export type Result<T> = { ok: true; value: T } | { ok: false; issues: InputIssue[] };

/** An input issue of a batch, with the position of its input. */
export interface BatchIssue extends InputIssue {
  index: number;
}

export type BatchResult<T> = { ok: true; value: T[] } | { ok: false; issues: BatchIssue[] };

export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

/** A refusal naming one field. */
export function refuse<T>(field: string, message: string): Result<T> {
  return { ok: false, issues: [{ field, message }] };
}

/** The message of an Error, or the value as text. */
export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
