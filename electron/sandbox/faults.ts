// Fault injection for service calls (never for /_sandbox/): a latency, and four ways a call can go
// wrong that a client must survive — a server error without applying, applied but the connection
// dropped, no answer at all, and a proxy's HTML 503. Only the proxy's 503 also meets the WSDL and
// help pages (when not limited to some operations): a proxy in front of IIS answers for the whole
// service, so a free probe of the WSDL sees what the calls see. Off by default; a config replaces
// the previous one whole, so what is set is exactly what GET /_sandbox/faults shows.
import { z } from 'zod';
import { describeIssues } from './state';
import { OPERATION_NAMES } from './operations';
import { TEXT_HTML, type Reply } from './bindings/reply';

export interface FaultConfig {
  latencyMs?: number;
  failureRate?: number;
  applyThenDropRate?: number;
  hangRate?: number;
  proxy503Rate?: number;
  /** The proxy's 503 says to come back after this many seconds (Retry-After); 1 when unset. */
  retryAfterSeconds?: number;
  operations?: string[];
}

export type FaultMode = 'hang' | 'proxy503' | 'failure' | 'applyThenDrop';

const rate = z.number().min(0).max(1);

const faultSchema = z
  .object({
    latencyMs: z.number().int().min(0).max(600_000).optional(),
    failureRate: rate.optional(),
    applyThenDropRate: rate.optional(),
    hangRate: rate.optional(),
    proxy503Rate: rate.optional(),
    retryAfterSeconds: z.number().int().min(0).max(86_400).optional(),
    operations: z
      .array(z.string().refine((name) => (OPERATION_NAMES as string[]).includes(name), { message: `must be one of ${OPERATION_NAMES.join(', ')}` }))
      .optional(),
  })
  .strict();

export class FaultConfigError extends Error {
  override name = 'FaultConfigError';
}

/** Checks a fault config from a caller, a request body or the CLI; unknown keys are refused (typos). */
export function parseFaults(input: unknown): FaultConfig {
  const parsed = faultSchema.safeParse(input ?? {});
  if (!parsed.success) throw new FaultConfigError(`Invalid fault configuration: ${describeIssues(parsed.error.issues)}`);
  const config: FaultConfig = {};
  for (const [key, value] of Object.entries(parsed.data)) {
    if (value !== undefined) (config as Record<string, unknown>)[key] = value;
  }
  return config;
}

export function appliesTo(config: FaultConfig, operation: string): boolean {
  return config.operations === undefined || config.operations.includes(operation);
}

/**
 * One draw per mode, in a fixed order, so a rate of 1 always wins and an injected RNG gives a
 * predictable sequence. The order puts the modes that never apply the call first.
 */
export function pickFault(config: FaultConfig, operation: string, random: () => number): FaultMode | null {
  if (!appliesTo(config, operation)) return null;
  const draws: [FaultMode, number | undefined][] = [
    ['hang', config.hangRate],
    ['proxy503', config.proxy503Rate],
    ['failure', config.failureRate],
    ['applyThenDrop', config.applyThenDropRate],
  ];
  for (const [mode, probability] of draws) {
    if (probability !== undefined && probability > 0 && random() < probability) return mode;
  }
  return null;
}

/** Whether a request for the service's own pages (WSDL, help) gets the proxy's 503 page. */
export function documentationFault(config: FaultConfig, random: () => number): boolean {
  if (config.operations !== undefined) return false;
  const probability = config.proxy503Rate;
  return probability !== undefined && probability > 0 && random() < probability;
}

export function latencyFor(config: FaultConfig, operation: string): number {
  return appliesTo(config, operation) ? (config.latencyMs ?? 0) : 0;
}

/** The proxy's 503 answer: its page, and when it says to come back. */
export function proxy503Reply(config: FaultConfig): Reply {
  return { status: 503, headers: { 'Content-Type': TEXT_HTML, 'Retry-After': String(config.retryAfterSeconds ?? 1) }, body: PROXY_503_PAGE };
}

/** The HTML page a reverse proxy shows when the service behind it is down. */
export const PROXY_503_PAGE = `<!DOCTYPE html>
<html>
<head><title>503 Service Temporarily Unavailable</title></head>
<body>
<center><h1>503 Service Temporarily Unavailable</h1></center>
<hr><center>nginx</center>
</body>
</html>
`;

/** The message of an injected server error: a transient database problem, as a real service has. */
export const INJECTED_FAILURE_MESSAGE =
  'Timeout expired.  The timeout period elapsed prior to completion of the operation or the server is not responding. (Injected by the sandbox: nothing was changed.)';
