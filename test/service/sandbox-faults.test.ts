// Whether a failed call may have reached the service, checked against what the sandbox really did:
// a refused port (nothing can have happened), a call applied and then dropped (the site exists:
// 'maybe' was the only honest answer), and a call that hangs past the time limit.
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../electron/sandbox/index';
import { BINDINGS, mayHaveBeenApplied, type CallError, type CallResult } from '../../electron/core/service/types';
import { clientFor, sandboxPerFile, startTestSandbox } from './helpers/sandbox';

let sandbox: RunningSandbox;
sandboxPerFile((started) => (sandbox = started));

function failure<T>(result: CallResult<T>): CallError {
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result.value)}`);
  return result.error;
}

const newSite = (name: string) => ({ name, height: 25, latitude: 44.95, longitude: -93.1 });

describe('a sandbox that is not running', () => {
  it.each(BINDINGS)('reports a refused connection over %s as never sent', async (binding) => {
    const stopped = await startTestSandbox();
    const client = clientFor(stopped, binding);
    await stopped.close();
    const error = failure(await client.saveSite(newSite('Refused')));
    expect(error).toMatchObject({ kind: 'network', sent: 'no', code: 'ECONNREFUSED', retryable: true });
    expect(mayHaveBeenApplied(error)).toBe(false);
  });
});

describe.each(BINDINGS)('fault injection over %s', (binding) => {
  it('reports a call applied and then dropped as possibly applied — and it was', async () => {
    sandbox.setFaults({ applyThenDropRate: 1 });
    const name = `Dropped ${binding}`;
    const error = failure(await clientFor(sandbox, binding).saveSite(newSite(name)));
    expect(error).toMatchObject({ kind: 'network', sent: 'maybe', retryable: true });
    expect(mayHaveBeenApplied(error)).toBe(true);
    expect(sandbox.snapshot().sites.filter((site) => site.name === name)).toHaveLength(1);
  });

  it('gives up on a call that hangs after the time limit and calls it possibly applied', async () => {
    sandbox.setFaults({ hangRate: 1 });
    const error = failure(await clientFor(sandbox, binding).listRenderingQualities({ timeoutMs: 400 }));
    expect(error).toMatchObject({ kind: 'timeout', timeoutMs: 400, retryable: true });
    expect(mayHaveBeenApplied(error)).toBe(true);
  });

  it('waits through latency that stays within the time limit', async () => {
    sandbox.setFaults({ latencyMs: 150 });
    const result = await clientFor(sandbox, binding, { timeoutMs: 20_000 }).listRenderingQualities();
    expect(result.ok).toBe(true);
  });

  it('applies faults only to the operations named', async () => {
    sandbox.setFaults({ proxy503Rate: 1, operations: ['EusReprocessAPI'] });
    expect((await clientFor(sandbox, binding).listRenderingQualities()).ok).toBe(true);
    const submission = sandbox.snapshot().submissions[0]!;
    const error = failure(await clientFor(sandbox, binding).reprocessEus({ processId: submission.processId, multiMapId: submission.multiMapId, sendEmail: false }));
    expect(error).toMatchObject({ kind: 'http', status: 503 });
  });
});
