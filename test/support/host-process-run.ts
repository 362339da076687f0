// Starts test/support/host-process.ts (the run's bundle of it: process-bundles.ts) and watches it: its API latency (getStatus, asked again and
// again while a test does its work) and its peak resident memory (VmHWM, Linux's high-water mark,
// which no sampling can miss).
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { once } from 'node:events';
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import type { Readable } from 'node:stream';
import { call } from './host';
import { bundledProcess } from './process-bundles';

export interface HostProcess {
  port: number;
  token: string;
  pid: number;
  stderr: () => string;
  /** Peak resident memory of the process so far, in bytes. */
  peakRss(): Promise<number>;
  /** SIGTERM, and waits for the exit. */
  stop(): Promise<number | null>;
}

export async function startHostProcess(dataDir: string): Promise<HostProcess> {
  const child: ChildProcessByStdio<null, Readable, Readable> = spawn(process.execPath, [bundledProcess('host-process'), dataDir], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      const newline = stdout.indexOf('\n');
      if (newline !== -1) resolve(stdout.slice(0, newline));
    });
    child.on('exit', (code, signal) => reject(new Error(`the host exited (${code ?? signal}) before it answered: ${stderr}`)));
  });
  const { port, token } = JSON.parse(line) as { port: number; token: string };
  return {
    port,
    token,
    pid: child.pid!,
    stderr: () => stderr,
    async peakRss() {
      const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
      const kb = /^VmHWM:\s+(\d+) kB$/m.exec(status);
      if (!kb) throw new Error('no VmHWM in /proc/PID/status');
      return Number(kb[1]) * 1024;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const [code] = (await once(child, 'exit')) as [number | null];
      return code;
    },
  };
}

/** Asks getStatus over and over until stopped; `slowest()` is the longest answer, in ms. */
export function watchStatus(host: Pick<HostProcess, 'port' | 'token'>): { stop(): Promise<{ slowest: number; answers: number }> } {
  let running = true;
  let slowest = 0;
  let answers = 0;
  let started = performance.now();
  const loop = (async () => {
    while (running) {
      started = performance.now();
      const response = await call(host, 'getStatus', []);
      if (response.status !== 200) throw new Error(`getStatus: HTTP ${response.status}`);
      slowest = Math.max(slowest, performance.now() - started);
      answers++;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  return {
    async stop() {
      running = false;
      // A call still waiting counts from when it was asked, not from when it finally answers.
      slowest = Math.max(slowest, performance.now() - started);
      await loop;
      return { slowest, answers };
    },
  };
}

/**
 * openBulkFile as the page's bridge sends a chosen file: the file's bytes as the raw body, read from
 * disk as they go (so this process holds none of it), its name in X-Sitewalk-File-Name.
 */
export async function uploadFile(host: Pick<HostProcess, 'port' | 'token'>, path: string, name: string): Promise<{ status: number; body: string }> {
  const { size } = await stat(path);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: '127.0.0.1',
        port: host.port,
        method: 'POST',
        path: '/api/openBulkFile',
        headers: {
          host: `127.0.0.1:${host.port}`,
          authorization: `Bearer ${host.token}`,
          'content-type': 'application/octet-stream',
          'content-length': size,
          'x-sitewalk-file-name': encodeURIComponent(name),
        },
        agent: false,
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    createReadStream(path).pipe(request);
  });
}
