// The sandbox's refusals on the wire, seen by a client that is not ours, over every binding: a wrong
// key or account, an account with no API calls left, a value the operation's rules refuse — each
// answered as ASMX answers it and each leaving the state and the quota exactly as they were — and
// the call log, which records a refusal and never the key.
import { describe, expect, it } from 'vitest';
import { call, callsLeft, demoSandboxForFile, durableState, expectRejected, patchAccount, RAW_BINDINGS, send, validFields, type Fields, type RawBinding } from './raw';

const sandbox = demoSandboxForFile();

// Every rejection below must leave the state and the quota exactly as they were.
async function expectRefusedUnchanged(
  binding: RawBinding,
  operation: 'SitesAPI' | 'GetRenderingQualityList' | 'EusReprocessAPI',
  fields: Fields,
  expected: { exceptionType: string; message: string },
): Promise<void> {
  const before = durableState(sandbox);
  const response = await call(sandbox, binding, operation, fields);
  expectRejected(binding, response, { ...expected, phase: 'process' });
  expect(durableState(sandbox)).toEqual(before);
}

describe.each(RAW_BINDINGS)('authentication and quota over %s', (binding) => {
  const AUTH = { exceptionType: 'System.UnauthorizedAccessException', message: 'Invalid account ID or API key.' };

  it.each(['SitesAPI', 'GetRenderingQualityList', 'EusReprocessAPI'] as const)('refuses %s with a wrong key, a wrong account or a blank key', async (operation) => {
    await expectRefusedUnchanged(binding, operation, validFields(sandbox, operation, { key: 'not-the-key' }), AUTH);
    await expectRefusedUnchanged(binding, operation, validFields(sandbox, operation, { Account: '10002' }), AUTH);
    await expectRefusedUnchanged(binding, operation, validFields(sandbox, operation, { key: '' }), AUTH);
  });

  it.each(['SitesAPI', 'GetRenderingQualityList', 'EusReprocessAPI'] as const)('refuses %s once the account has no API calls left', async (operation) => {
    await patchAccount(sandbox, { callsLeft: 0 });
    await expectRefusedUnchanged(binding, operation, validFields(sandbox, operation), { exceptionType: 'System.InvalidOperationException', message: 'No API calls left for this account.' });
    expect(callsLeft(sandbox)).toBe(0);
  });

  it('serves the last API call and refuses the next', async () => {
    await patchAccount(sandbox, { callsLeft: 1 });
    expect((await call(sandbox, binding, 'GetRenderingQualityList', validFields(sandbox, 'GetRenderingQualityList'))).status).toBe(200);
    expect(callsLeft(sandbox)).toBe(0);
    await expectRefusedUnchanged(binding, 'GetRenderingQualityList', validFields(sandbox, 'GetRenderingQualityList'), {
      exceptionType: 'System.InvalidOperationException',
      message: 'No API calls left for this account.',
    });
  });
});

describe.each(RAW_BINDINGS)('validation over %s', (binding) => {
  const ARG = 'System.ArgumentException';
  it.each([
    ['a height that is not whole', 'SitesAPI', { height: '30.5' }, "Height must be a whole number of meters, like 30; '30.5' is not."],
    ['a latitude beyond 90', 'SitesAPI', { Latitude: '95' }, "Latitude must be between -90 and 90 degrees; '95' is outside."],
    ['pin style 5', 'SitesAPI', { Pinstyle: '5' }, "Pinstyle must be 1 (red), 2 (blue), 3 (orange) or 4 (green), or blank for the default (1); '5' is not."],
    ['a Siteid the account does not have', 'SitesAPI', { Siteid: '999999' }, 'Site 999999 was not found.'],
    ['emailsend 2', 'EusReprocessAPI', { emailsend: '2' }, "emailsend must be 1 (send the email again) or 0 (no email); '2' is not accepted."],
    ['a multicoverageid with a letter', 'EusReprocessAPI', { multicoverageid: '12a' }, "multicoverageid must contain digits only; '12a' is not."],
    ['an unknown processid', 'EusReprocessAPI', { processid: '123' }, 'Submission 123 was not found.'],
    ['an unknown Multi Map', 'EusReprocessAPI', { multicoverageid: '4999' }, 'Multi Map 4999 was not found.'],
  ] as const)('refuses %s with the rule in the message, spending nothing', async (_label, operation, overrides, message) => {
    await expectRefusedUnchanged(binding, operation, validFields(sandbox, operation, overrides), { exceptionType: ARG, message });
  });
});

describe('the call log', () => {
  it('records a refused call with its message and never the API key', async () => {
    await call(sandbox, 'http-get', 'SitesAPI', validFields(sandbox, 'SitesAPI', { height: '30.5' }));
    const response = await send(sandbox.url, { method: 'GET', path: '/_sandbox/calls' });
    const calls = JSON.parse(response.body) as Array<{ operation: string; outcome: string; status: number; params: Record<string, string> }>;
    expect(calls.at(-1)).toMatchObject({ operation: 'SitesAPI', outcome: 'fault', status: 500, params: { height: '30.5', key: '[redacted]' } });
    expect(response.body).not.toContain(sandbox.demo.key);
  });
});
