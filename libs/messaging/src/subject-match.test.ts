import { subjectMatches } from './subject-match';

describe('subjectMatches', () => {
  it.each([
    ['mail.>', 'mail.send', true],
    ['mail.>', 'mail.send.now', true],
    ['mail.>', 'mail', false],
    ['items.*.create', 'items.a.create', true],
    ['items.*.create', 'items.a.b.create', false],
    ['items.a', 'items.a', true],
    ['items.a', 'items.b', false],
    ['items.*', 'items', false],
  ])('%s ~ %s → %s', (pattern, subject, expected) => {
    expect(subjectMatches(pattern, subject)).toBe(expected);
  });
});
