// `sitewalk call <Operation>`: one raw call with the spec's parameter names, for support to
// reproduce exactly what the service says. Values are not validated (that is the service's job
// here) except for characters XML cannot carry; names are checked, case-sensitively. The key comes
// from --key or SITEWALK_KEY and is never printed. The call goes over the binding asked, always (no
// binding fallback): when the service's ASP.NET front refuses it (request validation on HTTP GET/POST,
// a GET query over 2,048 characters), the outcome says it is not retryable as sent and names the
// binding that would carry it (error.refusedBy.carrier, and a line on stderr).
import { Argument, Command, Option } from 'commander';
import { createServiceClient } from '../core/service/client';
import { extractSiteId } from '../core/service/interpret';
import { CREDENTIAL_PARAMETERS, requestParameters } from '../core/service/operations';
import { BINDINGS, OPERATIONS, REAL_SERVICE, type Binding, type InputIssue, type Operation, type RenderingQuality } from '../core/service/types';
import { CliExit, EXIT, errorDocument, printJson, usageError, type CliIo } from './io';

interface CallFlags {
  baseUrl: string;
  servicePath: string;
  namespace: string;
  binding: Binding;
  account: string;
  key?: string;
  param: string[];
  timeout: string;
}

const MAX_TIMEOUT_MS = 10 * 60 * 1000;

export function registerCallCommand(program: Command, io: CliIo): void {
  program
    .command('call')
    .description('Make one raw service call with the spec\'s parameter names and print the outcome as JSON.')
    .addArgument(new Argument('<operation>', 'the operation to call').choices(OPERATIONS))
    .requiredOption('--base-url <url>', 'service base URL, e.g. https://api.towercoverage.com')
    .option('--service-path <path>', 'service path', REAL_SERVICE.servicePath)
    .option('--namespace <ns>', 'SOAP namespace', REAL_SERVICE.namespace)
    .addOption(new Option('--binding <binding>', 'protocol binding').choices(BINDINGS).default(REAL_SERVICE.binding))
    .requiredOption('--account <id>', 'account ID')
    .option('--key <key>', 'API key (prefer the SITEWALK_KEY environment variable: a command line is visible to other users)')
    .option('--param <Name=value>', 'a parameter by its spec name, case-sensitive (repeatable)', collect, [])
    .option('--timeout <ms>', 'time limit for the call in milliseconds', '30000')
    .addHelpText(
      'after',
      [
        '',
        'Parameters per operation (Account and key come from --account and --key):',
        ...OPERATIONS.map((operation) => `  ${operation}: ${requestParameters(operation).join(', ') || '(none)'}`),
        '',
        'Exit codes: 0 success, 1 the call failed, 2 usage error (nothing sent).',
      ].join('\n'),
    )
    .action(async (operation: Operation, flags: CallFlags) => {
      await runCall(operation, flags, io);
    });
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

async function runCall(operation: Operation, flags: CallFlags, io: CliIo): Promise<void> {
  const context = { operation, binding: flags.binding };
  const issues: InputIssue[] = [];

  // An empty SITEWALK_KEY (`SITEWALK_KEY= sitewalk call …`, or a variable exported from an unset one)
  // is not a key, as for every other command (commands/context.ts): the call is not sent with a blank one.
  const fromEnv = io.env.SITEWALK_KEY;
  const envKey = fromEnv !== undefined && fromEnv.trim() !== '' ? fromEnv : undefined;
  const key = flags.key ?? envKey;
  if (key === undefined) {
    const message = fromEnv === undefined ? 'No API key: set SITEWALK_KEY or give --key.' : 'No API key: SITEWALK_KEY is set but empty; set it to the account\'s key or give --key.';
    issues.push({ field: 'key', message });
  }

  const timeoutMs = /^\d+$/.test(flags.timeout.trim()) ? Number(flags.timeout.trim()) : NaN;
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > MAX_TIMEOUT_MS) {
    issues.push({ field: 'timeout', message: `--timeout must be a whole number of milliseconds between 1 and ${MAX_TIMEOUT_MS}.` });
  }

  const params: Record<string, string> = {};
  const valid = requestParameters(operation);
  for (const entry of flags.param) {
    const equals = entry.indexOf('=');
    const name = equals >= 0 ? entry.slice(0, equals) : entry;
    if (equals <= 0) {
      issues.push({ field: 'param', message: `--param "${entry}" must be Name=value, like --param height=30.` });
    } else if (CREDENTIAL_PARAMETERS.includes(name)) {
      issues.push({ field: name, message: `${name} is given with --${name === 'key' ? 'key' : 'account'} (or SITEWALK_KEY), not with --param.` });
    } else if (!valid.includes(name)) {
      const near = valid.find((candidate) => candidate.toLowerCase() === name.toLowerCase());
      issues.push({
        field: name,
        message:
          `${operation} has no parameter "${name}"${near ? ` (names are case-sensitive: did you mean "${near}"?)` : ''}; ` +
          `valid parameters are ${valid.join(', ') || 'none besides Account and key'}.`,
      });
    } else if (name in params) {
      issues.push({ field: name, message: `--param ${name} is given twice.` });
    } else {
      params[name] = entry.slice(equals + 1);
    }
  }
  if (issues.length > 0) usageError(io, issues, context);

  const client = createServiceClient({
    connection: { baseUrl: flags.baseUrl, servicePath: flags.servicePath, namespace: flags.namespace, binding: flags.binding },
    credentials: () => ({ account: flags.account, key: key ?? '' }),
    ...(io.fetch ? { fetch: io.fetch } : {}),
    timeoutMs,
  });
  const outcome = await client.callRaw(operation, params, { timeoutMs });

  if (!outcome.ok) {
    if (outcome.error.kind === 'invalid-input') usageError(io, outcome.error.issues, context);
    io.stderr(`sitewalk call: ${outcome.error.message}\n`);
    const refused = outcome.error.refusedBy;
    if (refused) {
      const rule = refused.rule === 'request-validation' ? `ASP.NET request validation refused ${refused.parameter ?? 'a parameter'}` : 'ASP.NET refused the query string as too long';
      io.stderr(`sitewalk call: ${rule} over ${flags.binding}; not retryable as sent. --binding ${refused.carrier} would carry it (nothing was changed, no API call was used).\n`);
    }
    printJson(io, { ok: false, ...context, error: errorDocument(outcome.error) });
    throw new CliExit(EXIT.failed);
  }

  const value = outcome.value.result;
  let result: Record<string, unknown>;
  if (Array.isArray(value)) {
    result = { qualities: value satisfies RenderingQuality[] };
  } else {
    result = { text: value };
    if (operation === 'SitesAPI') {
      // A site ID when the text is one (a create answers with the new ID).
      const siteId = extractSiteId(value);
      if (siteId !== null) result.siteId = siteId;
    }
  }
  printJson(io, { ok: true, ...context, result });
}
