// The outbound effects of EusReprocessAPI (spec §4.3): with emailsend=1 one mail per EUS
// recipient in the outbox and the submission XML POSTed to the account's EUS API URL — here a
// receiver run by the test — each delivery recorded; with emailsend=0 neither. The submission is
// moved to the Multi Map, never duplicated, and a receiver that fails or is gone never fails the
// reprocess itself.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type MailMessage, type PushAttempt } from '../../electron/sandbox/index';
import { call, callsLeft, inspect, only, parseXml, patchAccount, RAW_BINDINGS, validFields, type RawResponse, demoSandboxForFile } from './raw';

interface Received {
  method: string;
  url: string;
  contentType: string | undefined;
  body: string;
}

const TNS = 'http://tempuri.org/';
const RECIPIENTS = ['noc@gallatinsky.example', 'installs@gallatinsky.example'];

const sandbox = demoSandboxForFile();
let receiver: http.Server;
let receiverUrl: string;
let received: Received[] = [];
/** What the receiver answers; a gate holds the answer until the test opens it. */
let answer: { status: number; gate?: Promise<void> } = { status: 200 };

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', contentType: req.headers['content-type'], body: Buffer.concat(chunks).toString('utf8') });
      const { status, gate } = answer;
      void (gate ?? Promise.resolve()).then(() => res.writeHead(status, { 'Content-Type': 'text/plain' }).end(status === 200 ? 'received' : 'receiver broke'));
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/eus/hook?token=abc`;
});
afterAll(async () => {
  receiver?.closeAllConnections();
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
});
beforeEach(() => {
  received = [];
  answer = { status: 200 };
});

function reprocess(overrides: Record<string, string> = {}, binding: (typeof RAW_BINDINGS)[number] = 'http-get'): Promise<RawResponse> {
  return call(sandbox, binding, 'EusReprocessAPI', validFields(sandbox, 'EusReprocessAPI', { emailsend: '1', ...overrides }));
}

/** The result text of a successful call, whatever the binding. */
function resultText(response: RawResponse): string {
  expect(response.status).toBe(200);
  return parseXml(response.body).documentElement.textContent ?? '';
}

async function pushes(): Promise<PushAttempt[]> {
  return (await inspect<PushAttempt[]>(sandbox, 'pushes')).json;
}

async function mail(): Promise<MailMessage[]> {
  return (await inspect<MailMessage[]>(sandbox, 'mail')).json;
}

/** Polls until the condition holds (generous bound: pushes are local and quick). */
async function eventually<T>(read: () => Promise<T>, holds: (value: T) => boolean, timeoutMs = 8_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (holds(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms; last value ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe.each(RAW_BINDINGS)('emailsend=1 over %s', (binding) => {
  it('mails every EUS recipient and POSTs the submission XML to the EUS API, recording the delivery', async () => {
    await patchAccount(sandbox, { eusApiUrl: receiverUrl });
    const response = await reprocess({}, binding);
    expect(resultText(response)).toBe('Submission 880101 reprocessed into Multi Map 4101. Email sent to 2 recipients.');

    const outbox = await mail();
    expect(outbox.map((m) => [m.to, m.processId, m.account])).toEqual(RECIPIENTS.map((to) => [to, '880101', '10001']));
    expect(outbox[0]!.subject).toContain('880101');

    const [push] = await eventually(pushes, (list) => list.length === 1 && !list[0]!.pending);
    expect(push).toMatchObject({ processId: '880101', account: '10001', url: receiverUrl, status: 200, error: null, pending: false });
    expect(typeof push!.durationMs).toBe('number');

    expect(received).toHaveLength(1);
    const [delivery] = received;
    expect(delivery!.method).toBe('POST');
    expect(delivery!.url).toBe('/eus/hook?token=abc');
    expect(delivery!.contentType).toBe('text/xml; charset=utf-8');
    const xml = parseXml(delivery!.body).documentElement;
    expect([xml.namespaceURI, xml.localName]).toEqual([TNS, 'EusSubmission']);
    expect(only(xml, TNS, 'ProcessId').textContent).toBe('880101');
    expect(only(xml, TNS, 'MultiCoverageId').textContent).toBe('4101');
    expect(only(xml, TNS, 'ReprocessCount').textContent).toBe('1');
  });
});

describe('EusReprocessAPI effects', () => {
  it('with emailsend=0 sends no mail and pushes nothing, but still moves the submission', async () => {
    await patchAccount(sandbox, { eusApiUrl: receiverUrl });
    const response = await reprocess({ emailsend: '0' });
    expect(resultText(response)).toBe('Submission 880101 reprocessed into Multi Map 4101. No email sent.');
    expect(await mail()).toEqual([]);
    expect(await pushes()).toEqual([]);
    expect(received).toEqual([]);
    expect(sandbox.snapshot().submissions.find((s) => s.processId === '880101')!.multiMapId).toBe('4101');
  });

  it('reassigns the submission to the Multi Map and never creates a new one, however often it is reprocessed', async () => {
    await patchAccount(sandbox, { eusApiUrl: receiverUrl });
    const before = sandbox.snapshot().submissions;
    expect(before.find((s) => s.processId === '880101')!.multiMapId).toBe('4102');

    resultText(await reprocess({ multicoverageid: '4101' }));
    resultText(await reprocess({ multicoverageid: '4103', emailsend: '0' }));

    const after = sandbox.snapshot().submissions;
    expect(after.map((s) => s.processId)).toEqual(before.map((s) => s.processId));
    const submission = after.find((s) => s.processId === '880101')!;
    expect(submission.multiMapId).toBe('4103');
    expect(submission.reprocessHistory.map((r) => [r.fromMultiMapId, r.toMultiMapId, r.sendEmail])).toEqual([
      ['4102', '4101', true],
      ['4101', '4103', false],
    ]);
    // Everything else about the other submissions is untouched.
    expect(after.filter((s) => s.processId !== '880101')).toEqual(before.filter((s) => s.processId !== '880101'));
  });

  it('pushes each reprocess with emailsend=1 again, carrying the running count', async () => {
    await patchAccount(sandbox, { eusApiUrl: receiverUrl });
    resultText(await reprocess());
    resultText(await reprocess({ multicoverageid: '4103' }));
    await eventually(pushes, (list) => list.length === 2 && list.every((p) => !p.pending));
    expect(received).toHaveLength(2);
    const last = parseXml(received[1]!.body).documentElement;
    expect(only(last, TNS, 'MultiCoverageId').textContent).toBe('4103');
    expect(only(last, TNS, 'ReprocessCount').textContent).toBe('2');
    expect(await mail()).toHaveLength(4);
  });

  it('mails but pushes nothing when the account has no EUS API URL', async () => {
    const response = await reprocess();
    expect(resultText(response)).toContain('Email sent to 2 recipients.');
    expect(await mail()).toHaveLength(2);
    expect(await pushes()).toEqual([]);
    expect(received).toEqual([]);
  });

  it('still pushes when the account has no EUS recipients, and says no email went out', async () => {
    await patchAccount(sandbox, { eusApiUrl: receiverUrl, recipients: [] });
    const response = await reprocess();
    expect(resultText(response)).toBe('Submission 880101 reprocessed into Multi Map 4101. No email sent: the account has no EUS recipients.');
    expect(await mail()).toEqual([]);
    await eventually(pushes, (list) => list.length === 1 && list[0]!.status === 200);
    expect(received).toHaveLength(1);
  });

  it('records a receiver that answers 500, and the reprocess still succeeds', async () => {
    await patchAccount(sandbox, { eusApiUrl: receiverUrl });
    answer = { status: 500 };
    const spent = callsLeft(sandbox);
    const response = await reprocess();
    expect(resultText(response)).toContain('reprocessed into Multi Map 4101');
    const [push] = await eventually(pushes, (list) => list.length === 1 && !list[0]!.pending);
    expect(push).toMatchObject({ status: 500, error: null, pending: false });
    expect(received).toHaveLength(1);
    expect(callsLeft(sandbox)).toBe(spent - 1);
    expect(sandbox.snapshot().submissions.find((s) => s.processId === '880101')!.multiMapId).toBe('4101');
  });

  it('records an unreachable receiver as a failed delivery, and the reprocess still succeeds', async () => {
    const gone = http.createServer();
    await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve));
    const port = (gone.address() as AddressInfo).port;
    await new Promise<void>((resolve) => gone.close(() => resolve()));
    const url = `http://127.0.0.1:${port}/eus`;
    await patchAccount(sandbox, { eusApiUrl: url });

    const response = await reprocess();
    expect(resultText(response)).toContain('Email sent to 2 recipients.');
    const [push] = await eventually(pushes, (list) => list.length === 1 && !list[0]!.pending);
    expect(push).toMatchObject({ url, status: null, pending: false });
    expect(push!.error).toMatch(/ECONNREFUSED/);
    expect(await mail()).toHaveLength(2);
  });

  it('answers without waiting for a slow receiver and records the delivery once it is answered', async () => {
    await patchAccount(sandbox, { eusApiUrl: receiverUrl });
    let open!: () => void;
    answer = { status: 200, gate: new Promise<void>((resolve) => (open = resolve)) };
    const response = await reprocess();
    expect(resultText(response)).toContain('reprocessed into Multi Map 4101');
    expect(await pushes()).toMatchObject([{ pending: true, status: null, error: null }]);
    open();
    await eventually(pushes, (list) => list.length === 1 && !list[0]!.pending && list[0]!.status === 200);
  });

  it('sends no mail and pushes nothing for a reprocess it refuses', async () => {
    await patchAccount(sandbox, { eusApiUrl: receiverUrl });
    const response = await reprocess({ multicoverageid: '4999' });
    expect(response.status).toBe(500);
    expect(await mail()).toEqual([]);
    expect(await pushes()).toEqual([]);
    expect(received).toEqual([]);
  });
});
