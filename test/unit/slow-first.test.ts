// The order test files start in: the known slowest first within each group, whatever their project,
// the groups themselves in their order, every other file where Vitest put it.
import { describe, expect, it } from 'vitest';
import { slowFirst, type Ordered } from '../support/slow-first-sequencer';

const file = (path: string, project = 'unit', groupOrder = 0): Ordered => ({ file: path, project, groupOrder });
const names = (items: Ordered[]) => items.map((item) => `${item.project}:${item.file}`);

describe('the order test files start in', () => {
  it('starts the known slow files of a group first, slowest first, and leaves the others in order', () => {
    const vitestOrder = [file('test/a.test.ts'), file('test/slow-2.test.ts'), file('test/b.test.ts'), file('test/slow-1.test.ts'), file('test/c.test.ts')];
    expect(names(slowFirst(vitestOrder, (item) => item, ['test/slow-1.test.ts', 'test/slow-2.test.ts']))).toEqual([
      'unit:test/slow-1.test.ts',
      'unit:test/slow-2.test.ts',
      'unit:test/a.test.ts',
      'unit:test/b.test.ts',
      'unit:test/c.test.ts',
    ]);
  });

  it('never moves a file out of its group', () => {
    const vitestOrder = [file('test/a.test.ts'), file('test/heavy-fast.test.ts', 'heavy', 2), file('test/e2e/slow.test.ts', 'e2e', 3), file('test/heavy-slow.test.ts', 'heavy', 2)];
    expect(names(slowFirst(vitestOrder, (item) => item, ['test/e2e/slow.test.ts', 'test/heavy-slow.test.ts']))).toEqual([
      'unit:test/a.test.ts',
      'heavy:test/heavy-slow.test.ts',
      'heavy:test/heavy-fast.test.ts',
      'e2e:test/e2e/slow.test.ts',
    ]);
  });

  it('orders the projects of one group together: a slow file of one goes before a faster file of the other', () => {
    const vitestOrder = [
      file('test/heavy-fast.test.ts', 'heavy', 1),
      file('test/heavy-slow.test.ts', 'heavy', 1),
      file('test/e2e/other.test.ts', 'e2e', 1),
      file('test/e2e/slow.test.ts', 'e2e', 1),
      file('test/e2e/medium.test.ts', 'e2e', 1),
    ];
    expect(names(slowFirst(vitestOrder, (item) => item, ['test/e2e/slow.test.ts', 'test/heavy-slow.test.ts', 'test/e2e/medium.test.ts', 'test/heavy-fast.test.ts']))).toEqual([
      'e2e:test/e2e/slow.test.ts',
      'heavy:test/heavy-slow.test.ts',
      'e2e:test/e2e/medium.test.ts',
      'heavy:test/heavy-fast.test.ts',
      'e2e:test/e2e/other.test.ts',
    ]);
  });
});
