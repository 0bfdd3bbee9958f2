import { statSync } from 'node:fs';
import path from 'node:path';

/**
 * The nearest existing directory above `target` (the target itself when it is a directory) that users other than
 * its owner and group cannot pass through (no search bit for others), or undefined. Run as root, the embedded
 * PostgreSQL runs as the `postgres` user, who must pass through every directory above its binary and its data.
 */
export function unsearchableAncestor(target: string): string | undefined {
  const dirs: string[] = [];
  for (let d = path.resolve(target); ; d = path.dirname(d)) {
    dirs.push(d);
    if (d === path.dirname(d)) break;
  }
  for (const d of dirs.reverse()) {
    let mode: number;
    try {
      const s = statSync(d);
      if (!s.isDirectory()) continue;
      mode = s.mode;
    } catch {
      break; // not there yet: created below a directory already checked
    }
    if ((mode & 0o001) === 0) return d;
  }
  return undefined;
}
