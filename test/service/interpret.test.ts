// Reading meaning into the service's free text: site IDs in results, results that are errors,
// quota and auth wordings, ASMX and .NET message clean-up. The patterns live in patterns.ts.
import { describe, expect, it } from 'vitest';
import { cleanServiceMessage, faultError, redactError } from '../../electron/core/service/errors';
import { extractSiteId, interpretReprocessResult, interpretSiteResult, resultError } from '../../electron/core/service/interpret';
import { isAuthText, isQuotaText, isValidationText } from '../../electron/core/service/patterns';

describe('site results', () => {
  it.each([
    ['100026', '100026'],
    [' 42 \n', '42'],
    ['Site ID: 123', '123'],
    ['SiteID=123', '123'],
    ['New site created. Site id #98765', '98765'],
    ['Site 555 created.', '555'],
    ['Created site with ID 77', '77'],
  ])('reads the site ID in %j', (text, id) => {
    expect(extractSiteId(text)).toBe(id);
  });

  it('keeps a text without an ID as the message of a create, with no site ID', () => {
    expect(interpretSiteResult('Saved.', {})).toEqual({ ok: true, value: { siteId: null, message: 'Saved.', raw: 'Saved.' } });
  });

  it('keeps the edited ID for an edit whatever number the text holds', () => {
    expect(interpretSiteResult('Site 100031 updated.', { siteId: '100031' })).toMatchObject({ ok: true, value: { siteId: '100031', message: 'Site 100031 updated.' } });
    expect(interpretSiteResult('OK', { siteId: '5' })).toMatchObject({ ok: true, value: { siteId: '5' } });
  });

  it('keeps a reprocess confirmation verbatim', () => {
    const text = 'Submission P-1 reprocessed into Multi Map 12. No email sent.';
    expect(interpretReprocessResult(text)).toEqual({ ok: true, value: { message: text, raw: text } });
  });
});

describe('results that read as errors', () => {
  it.each([
    'Error: site not found',
    'ERROR updating site',
    'Invalid Siteid',
    'Failed to save the site.',
    'Unable to reprocess submission',
    'Site 123 was not found.',
    'No API calls left for this account.',
    'Invalid account ID or API key.',
    'Unauthorized',
  ])('turns %j into a result fault', (text) => {
    expect(resultError(text)).toMatchObject({ kind: 'fault', source: 'result', retryable: false, reason: text });
    expect(interpretSiteResult(text, { siteId: '1' }).ok).toBe(false);
  });

  it.each([
    '100026',
    'Site 100026 updated.',
    'Submission 88 reprocessed into Multi Map 4. Email sent to 2 recipients.',
    'Submission 88 reprocessed into Multi Map 4. No email sent.',
    '',
  ])('reads %j as a success', (text) => {
    expect(resultError(text)).toBeNull();
  });

  it('marks quota and auth results so the outbox can pause', () => {
    expect(resultError('No API calls left for this account.')).toMatchObject({ quotaExhausted: true, authRejected: false });
    expect(resultError('Invalid account ID or API key.')).toMatchObject({ quotaExhausted: false, authRejected: true });
  });
});

describe('patterns', () => {
  it.each(['No API calls left for this account.', 'API call limit reached', 'Monthly quota exceeded', 'Out of API calls', 'Calls remaining: 0'])(
    'recognises %j as an exhausted quota',
    (text) => expect(isQuotaText(text)).toBe(true),
  );

  it.each(['Invalid account ID or API key.', 'Invalid key', 'Wrong account', 'The API key is not valid', 'Unauthorized', 'Access denied', 'Account not found'])(
    'recognises %j as a rejected account or key',
    (text) => expect(isAuthText(text)).toBe(true),
  );

  it.each(['Height must be a whole number of meters.', 'Invalid height', 'Missing parameter: height.', 'Site 9 was not found.'])(
    'does not take %j for an auth or quota problem, but for a validation one',
    (text) => {
      expect(isAuthText(text)).toBe(false);
      expect(isQuotaText(text)).toBe(false);
      expect(isValidationText(text)).toBe(true);
    },
  );
});

describe('service messages', () => {
  it('keeps the innermost message of an ASMX exception chain', () => {
    expect(cleanServiceMessage('System.Web.Services.Protocols.SoapException: Server was unable to process request. ---> System.ArgumentException: Pin style must be 1 to 4.')).toEqual({
      message: 'Pin style must be 1 to 4.',
      exceptionType: 'System.ArgumentException',
    });
  });

  it('drops the stack trace under an HTTP exception text', () => {
    const text = 'System.InvalidOperationException: Missing parameter: height.\r\n   at System.Web.Services.Protocols.ValueCollectionParameterReader.Read(NameValueCollection collection)\r\n   at System.Web.Services.Protocols.HttpServerProtocol.ReadParameters()';
    expect(cleanServiceMessage(text)).toEqual({ message: 'Missing parameter: height.', exceptionType: 'System.InvalidOperationException' });
  });

  it('does not retry a server fault that reports bad input', () => {
    const fault = faultError({ code: 'soap:Server', reason: 'Server was unable to process request. ---> Height must be a whole number of meters.', source: 'soap11', detail: '' });
    expect(fault).toMatchObject({ retryable: false, reason: 'Height must be a whole number of meters.' });
    expect(fault.message).toContain('"Height must be a whole number of meters."');
  });

  it('scrubs the key from every text of an error, plain or percent-encoded', () => {
    const fault = faultError({ code: 'soap:Client', reason: 'bad key a+b/c= for account', source: 'soap11', detail: 'query key=a%2Bb%2Fc%3D' });
    const scrubbed = redactError(fault, ['a+b/c=']);
    expect(JSON.stringify(scrubbed)).not.toMatch(/a\+b\/c=|a%2Bb%2Fc%3D/);
    expect(scrubbed.kind).toBe('fault');
  });
});
