// The sentences a bulk run ends with (finishRun, given a run's result as the core hands it back),
// each said once, and what the bulk commands' help promises: in the command line's words.
import { describe, expect, it } from 'vitest';
import { finishRun } from '../../electron/cli/commands/bulk-run';
import { CliExit, type CliIo } from '../../electron/cli/io';
import { sitewalkInTempHome } from '../support/cli';
import { countStatuses, type ReportRow, type RunResult } from '../../electron/shared/bulk/report';

async function ending(result: Omit<RunResult, 'counts'>): Promise<{ stderr: string; code: number }> {
  let stderr = '';
  const io: CliIo = { stdout: () => undefined, stderr: (text) => void (stderr += text), env: {} };
  try {
    await finishRun(io, { wait: true }, 'import', {}, { ...result, counts: countStatuses(result.rows) });
    return { stderr, code: 0 };
  } catch (exit) {
    if (!(exit instanceof CliExit)) throw exit;
    return { stderr, code: exit.exitCode };
  }
}

const queued = (row: number): ReportRow => ({ row, siteId: '', name: `Tower ${row}`, action: 'create', status: 'queued', message: 'Waiting in the outbox.' });

describe('how a bulk run ends', () => {
  it('says a stop while queueing once ("Stopped while queueing"), and a stop while waiting as such', async () => {
    const queueing = await ending({ outcome: 'stopped', blockers: [], stoppedBecause: 'Stopped while queueing: 10 of 25 rows were queued.', rows: [queued(2)], enqueueMs: 0, elapsedMs: 0 });
    expect(queueing.stderr).toMatch(/^sitewalk import: Stopped while queueing: 10 of 25 rows were queued\.$/m);
    expect(queueing.stderr).not.toMatch(/stopped waiting/i);
    expect(queueing.code).toBe(1);
    const waiting = await ending({ outcome: 'stopped', blockers: [], stoppedBecause: 'The service cannot be reached.', rows: [queued(2)], enqueueMs: 0, elapsedMs: 0 });
    expect(waiting.stderr).toMatch(/^sitewalk import: stopped waiting: The service cannot be reached\.$/m);
  });
});

const runCli = sitewalkInTempHome();

describe('the bulk commands\' help', () => {
  it('says how an import queues (batches, refused whole unless --skip-invalid) and every exit code, 3 and 130/143 among them', async () => {
    const help = (await runCli(['import', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(help).not.toMatch(/in one batch/);
    expect(help).toMatch(/10,000 to a transaction/);
    expect(help).toMatch(/refused whole unless --skip-invalid/);
    for (const command of ['import', 'reprocess-bulk']) {
      const text = (await runCli([command, '--help'])).stdout.replace(/\s+/g, ' ');
      expect(text, command).toMatch(/ 3 the file cannot be read or understood, or the report \(--report\) cannot be written/);
      expect(text, command).toMatch(/ 130 or 143 stopped by Ctrl-C or SIGTERM/);
    }
  });
});
