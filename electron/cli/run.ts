// The `sitewalk` process itself: argv to main(), then an explicit exit once stdout is flushed,
// because pooled keep-alive sockets would otherwise hold the process open for seconds after the
// answer. sitewalk.mjs runs it from source through tsx; the tests' process bundle starts from here.
import { main } from './main';

void main(process.argv.slice(2)).then((code) => process.stdout.write('', () => process.exit(code)));
