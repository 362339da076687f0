// Who answers Ctrl-C and SIGTERM in the `sitewalk` process: the command, or else the process exits
// with 128 + the signal's number (130, 143), its exit clean-ups run. A library under conf (when-exit,
// through atomically) answers both signals by running its clean-ups and sending the signal again, so
// that it ends the process by the signal's default the moment no listener is left: that raced the
// commands' own handling (Ctrl-C while an import checked a file printed its sentence, then the process
// was sometimes killed by the second SIGINT instead of exiting 130). Its listeners go; its clean-ups
// still run at exit, which it also listens for.
const EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const;

export function ownSignals(): void {
  for (const [signal, code] of Object.entries(EXIT_CODES) as Array<[keyof typeof EXIT_CODES, number]>) {
    process.removeAllListeners(signal);
    // Always listening, so the signal never falls back to its default; a command's own listener (an
    // import stopping between batches, or while it checks a file) decides when there is one.
    process.on(signal, () => {
      if (process.listenerCount(signal) === 1) process.exit(code);
    });
  }
}

/** The exit code of a command stopped by `signal`, as a shell reports a death by it (130, 143). */
export function signalExitCode(signal: NodeJS.Signals): number {
  return signal === 'SIGTERM' ? EXIT_CODES.SIGTERM : EXIT_CODES.SIGINT;
}

/** How the user sends `signal` again to quit at once: "Ctrl-C" or "SIGTERM". */
export function againWords(signal: NodeJS.Signals): string {
  return signal === 'SIGTERM' ? 'SIGTERM' : 'Ctrl-C';
}

/**
 * A command's own answer to the first Ctrl-C or SIGTERM (`stop`), after which a second one of
 * either quits at once (ownSignals); returns the removal of its listeners.
 */
export function onFirstStopSignal(stop: (signal: NodeJS.Signals) => void): () => void {
  const handler = (signal: NodeJS.Signals) => {
    process.removeListener(signal === 'SIGTERM' ? 'SIGINT' : 'SIGTERM', handler);
    stop(signal);
  };
  process.once('SIGINT', handler);
  process.once('SIGTERM', handler);
  return () => {
    process.removeListener('SIGINT', handler);
    process.removeListener('SIGTERM', handler);
  };
}
