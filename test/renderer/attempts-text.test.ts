import { describe, expect, it } from 'vitest';
import { attemptsText } from '../../renderer/src/features/outbox/attempts';

describe('an outbox entry\'s attempts', () => {
  it('says nothing before the first try, and the count while it has not been sent again', () => {
    expect(attemptsText({ attempts: 0, totalAttempts: 0 })).toBe('');
    expect(attemptsText({ attempts: 1, totalAttempts: 1 })).toBe('1 attempt');
    expect(attemptsText({ attempts: 4, totalAttempts: 4 })).toBe('4 attempts');
  });

  it('after Retry or Send again, or answers that the service is away, says every try and those counting toward giving up', () => {
    expect(attemptsText({ attempts: 1, totalAttempts: 2 })).toBe('2 attempts, 1 counting toward giving up');
    // Two "away" answers of an outage, nobody having retried anything: not "none since retried".
    expect(attemptsText({ attempts: 0, totalAttempts: 2 })).toBe('2 attempts, none counting toward giving up');
  });
});
