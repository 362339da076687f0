// `npm run sandbox -- [flags]`: the sandbox alone, for trying the app, training and benchmarks.
// Prints where it listens, the WSDL, the demo account and the inspection URL, then one line per
// service call (unless --quiet). Bad flags exit 2 with the reason; a failed start exits 1;
// Ctrl-C / SIGTERM close it cleanly and exit 0.
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { startSandbox, SandboxOptionError, type FaultConfig, type SandboxOptions } from './index';
import { FaultConfigError } from './faults';
import { StateError } from './state';

function wholeNumber(label: string, min: number, max: number) {
  return (value: string): number => {
    if (!/^\d+$/.test(value.trim())) throw new InvalidArgumentError(`${label} must be a whole number, not '${value}'.`);
    const n = Number(value);
    if (n < min || n > max) throw new InvalidArgumentError(`${label} must be from ${min} to ${max}, not ${value}.`);
    return n;
  };
}

function rate(label: string) {
  return (value: string): number => {
    const n = /^(?:0|1|0?\.\d+|1\.0*)$/.test(value.trim()) ? Number(value) : NaN;
    if (!(n >= 0 && n <= 1)) throw new InvalidArgumentError(`${label} must be a number from 0 to 1 (e.g. 0.25), not '${value}'.`);
    return n;
  };
}

export function buildProgram(): Command {
  return new Command('sandbox')
    .description('Run the Sitewalk sandbox: a local stand-in for the coverage-mapping ASMX service (SOAP 1.1, SOAP 1.2, HTTP GET, HTTP POST).')
    .addOption(new Option('--port <port>', 'port to listen on; 0 = any free port').default(8090).argParser(wholeNumber('--port', 0, 65535)))
    .option('--host <host>', 'address to listen on (keep it on loopback unless you mean to share it)', '127.0.0.1')
    .option('--data <file>', 'keep the state in this JSON file across restarts (default: memory only)')
    .addOption(new Option('--seed <seed>', 'starting data when there is no data file').choices(['demo', 'empty']).default('demo'))
    .option('--service-path <path>', 'service path', '/towercoverage.asmx')
    .option('--namespace <uri>', 'SOAP namespace of the operations', 'http://tempuri.org/')
    .option('--body-limit <bytes>', 'largest request body accepted (413 above)', wholeNumber('--body-limit', 1024, 1024 * 1024 * 1024))
    .option('--latency <ms>', 'delay added before answering every service call', wholeNumber('--latency', 0, 600_000))
    .option('--failure-rate <r>', 'share of calls answered with an ASMX 500 server error, not applied', rate('--failure-rate'))
    .option('--apply-then-drop-rate <r>', 'share of calls applied, then the connection dropped unanswered', rate('--apply-then-drop-rate'))
    .option('--hang-rate <r>', 'share of calls never answered', rate('--hang-rate'))
    .option('--proxy-503-rate <r>', "share of calls answered with a proxy's HTML 503 page, not applied", rate('--proxy-503-rate'))
    .option('--retry-after <seconds>', "the Retry-After the proxy's 503 sends (default 1)", wholeNumber('--retry-after', 0, 86_400))
    .option('--fault-operations <names>', 'comma-separated operations the faults apply to (default: all)')
    .option('--no-request-validation', "accept markup-like values and query strings over 2,048 characters on HTTP GET/POST, like a service with ASP.NET's request validation turned off")
    .option('--quiet', 'do not print a line per service call')
    .showHelpAfterError('(run with --help for the flags)')
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) });
}

interface Flags {
  port: number;
  host: string;
  data?: string;
  seed: 'demo' | 'empty';
  servicePath: string;
  namespace: string;
  bodyLimit?: number;
  latency?: number;
  failureRate?: number;
  applyThenDropRate?: number;
  hangRate?: number;
  proxy503Rate?: number;
  retryAfter?: number;
  faultOperations?: string;
  /** false with --no-request-validation. */
  requestValidation: boolean;
  quiet?: boolean;
}

/** Each numeric fault flag and the fault setting it gives, when given. */
const FAULT_FLAGS = {
  latency: 'latencyMs',
  failureRate: 'failureRate',
  applyThenDropRate: 'applyThenDropRate',
  hangRate: 'hangRate',
  proxy503Rate: 'proxy503Rate',
  retryAfter: 'retryAfterSeconds',
} as const satisfies Partial<Record<keyof Flags, keyof FaultConfig>>;

export function optionsFromFlags(flags: Flags): SandboxOptions {
  const faults: FaultConfig = {};
  for (const [flag, setting] of Object.entries(FAULT_FLAGS) as Array<[keyof typeof FAULT_FLAGS, (typeof FAULT_FLAGS)[keyof typeof FAULT_FLAGS]]>) {
    const value = flags[flag];
    if (value !== undefined) faults[setting] = value;
  }
  if (flags.faultOperations !== undefined) faults.operations = flags.faultOperations.split(',').map((s) => s.trim()).filter((s) => s !== '');
  return {
    port: flags.port,
    host: flags.host,
    dataFile: flags.data,
    seed: flags.seed,
    servicePath: flags.servicePath,
    namespace: flags.namespace,
    bodyLimitBytes: flags.bodyLimit,
    requestValidation: flags.requestValidation,
    faults,
    log: flags.quiet ? undefined : (line) => process.stdout.write(`${line}\n`),
  };
}

async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    program.parse(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version are "errors" to commander; they exit 0.
      return error.exitCode === 0 ? 0 : 2;
    }
    throw error;
  }
  let options: SandboxOptions;
  try {
    options = optionsFromFlags(program.opts<Flags>());
  } catch (error) {
    process.stderr.write(`sandbox: ${(error as Error).message}\n`);
    return 2;
  }

  let sandbox;
  try {
    sandbox = await startSandbox(options);
  } catch (error) {
    if (error instanceof SandboxOptionError || error instanceof FaultConfigError) {
      process.stderr.write(`sandbox: ${error.message}\n`);
      return 2;
    }
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'EADDRINUSE' ? `port ${options.port} is already in use; pick another with --port (or --port 0 for any free port).`
        : code === 'EACCES' ? `not allowed to listen on ${options.host}:${options.port}.`
          : error instanceof StateError ? error.message
            : (error as Error).message;
    process.stderr.write(`sandbox: could not start: ${reason}\n`);
    return 1;
  }

  const service = `${sandbox.url}${sandbox.servicePath}`;
  process.stdout.write(
    [
      `Sitewalk sandbox listening on ${sandbox.url}`,
      `  Service:      ${service}  (SOAP 1.1, SOAP 1.2; HTTP GET/POST at ${service}/<Operation>)`,
      `  WSDL:         ${service}?WSDL`,
      `  Namespace:    ${sandbox.namespace}`,
      `  Demo account: ${sandbox.demo.account}   API key: ${sandbox.demo.key}`,
      `  Inspect:      ${sandbox.url}/_sandbox/state`,
      `  Data:         ${options.dataFile ?? `in memory (seed '${options.seed}')`}`,
      `  Validation:   ${options.requestValidation === false ? 'off (--no-request-validation)' : 'ASP.NET request validation on HTTP GET/POST (--no-request-validation turns it off)'}`,
      'Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );

  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: string): void => {
      if (stopping) return;
      stopping = true;
      process.stdout.write(`sandbox: ${signal} received, closing\n`);
      sandbox.close().then(
        () => resolve(0),
        (error: unknown) => {
          process.stderr.write(`sandbox: error while closing: ${(error as Error).message}\n`);
          resolve(1);
        },
      );
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`sandbox: ${(error as Error)?.stack ?? String(error)}\n`);
    process.exitCode = 1;
  },
);
