import { wordDiff } from './word-diff';

describe('wordDiff', () => {
  it('marks only the changed words and keeps line breaks', () => {
    expect(wordDiff('the quick fox\njumps', 'the slow fox\njumps high')).toEqual([
      { kind: 'same', text: 'the ' },
      { kind: 'del', text: 'quick' },
      { kind: 'ins', text: 'slow' },
      { kind: 'same', text: ' fox\njumps' },
      { kind: 'ins', text: ' high' },
    ]);
  });
  it('equal texts are one kept part; an empty side is all added or removed', () => {
    expect(wordDiff('a b', 'a b')).toEqual([{ kind: 'same', text: 'a b' }]);
    expect(wordDiff('', 'new text')).toEqual([{ kind: 'ins', text: 'new text' }]);
    expect(wordDiff('old', '')).toEqual([{ kind: 'del', text: 'old' }]);
  });
});
