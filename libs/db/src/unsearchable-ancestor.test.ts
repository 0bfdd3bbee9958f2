import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { unsearchableAncestor } from './unsearchable-ancestor';

describe('unsearchableAncestor', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'vellum-search-'));
    chmodSync(root, 0o755);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('names the highest directory others cannot pass through, above a path that may not exist yet', () => {
    mkdirSync(path.join(root, 'a/b'), { recursive: true });
    expect(unsearchableAncestor(path.join(root, 'a/b/data/not-yet'))).toBeUndefined();
    chmodSync(path.join(root, 'a/b'), 0o700);
    chmodSync(path.join(root, 'a'), 0o750);
    expect(unsearchableAncestor(path.join(root, 'a/b/data/not-yet'))).toBe(path.join(root, 'a'));
    chmodSync(path.join(root, 'a'), 0o711);
    expect(unsearchableAncestor(path.join(root, 'a/b/data'))).toBe(path.join(root, 'a/b'));
  });
});
