// The `sitewalk` process itself: argv to main(), then an explicit exit once stdout is flushed,
// because pooled keep-alive sockets would otherwise hold the process open for seconds after the
// answer; and the signals answered by the command or by an exit with 130/143 (signals.ts).
// sitewalk.mjs runs its bundle (bundle.ts), or it from source through tsx; the tests' process bundle
// starts from here too.
import { main } from './main';
import { ownSignals } from './signals';

ownSignals();

void main(process.argv.slice(2)).then((code) => process.stdout.write('', () => process.exit(code)));
