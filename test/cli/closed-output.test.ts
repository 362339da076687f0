// `sitewalk … | head`: a reader that stops reading ends the command quietly (exit 141, as SIGPIPE ends
// other tools), never with an unhandled "write EPIPE" and its stack trace. A real process and a real pipe.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures';
import { startSitewalk } from '../support/cli';

describe('a closed stdout', { timeout: 120_000 }, () => {
  it('ends `sitewalk import --dry-run --json | head -3` quietly with exit 141', async ({ tempDir }) => {
    const file = join(tempDir, 'towers.csv');
    const lines = ['Sitename,height,Latitude,Longitude'];
    // Far more JSON than a pipe holds, so the command is still writing when the reader goes.
    for (let i = 1; i <= 5000; i++) lines.push(`Tower ${i},30,${(40 + i / 10_000).toFixed(4)},-79.5`);
    await writeFile(file, `${lines.join('\n')}\n`);
    const cli = startSitewalk(tempDir, ['import', file, '--dry-run', '--json', '--data-dir', join(tempDir, 'data')]);
    cli.child.stdout!.once('data', () => cli.child.stdout!.destroy());
    const run = await cli.done;
    expect(run.stderr).not.toMatch(/EPIPE|Error|\n\s+at /);
    expect({ code: run.code, signal: cli.child.signalCode }).toEqual({ code: 141, signal: null });
  });
});
