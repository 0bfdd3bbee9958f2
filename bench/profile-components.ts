// node --import tsx bench/profile-components.ts <file.cpuprofile> [fromSeconds] [toSeconds]
// Where a profile's busy time goes by part of the platform: each sample is charged to the innermost frame of this
// repository on its stack (its folder: gateway, services/items/src/http, libs/outbox, …), so the node and pg work a
// part starts synchronously (a statement's socket write, a response's serialisation) counts as that part's; samples
// with no frame of the repository (socket reads, pg's parsing of answers, timers, GC) are "node and pg, no caller".
// The window as bench/profile-summary.ts takes it (the loaded seconds bench/profile-writes.ts prints).
import { readProfile } from './cpu-profile';

const { profile, byId, parent, from, to } = readProfile(process.argv.slice(2));

/** The part of the repository a frame's file is in (two or three path levels), or undefined outside it. */
function part(url: string): string | undefined {
  const path = url.replace(/^file:\/\//, '');
  if (path.includes('node_modules') || !path) return undefined;
  // the bench's own frames (profile-writes.ts's statement counter) are passed through to their caller
  const m = /\/((?:libs|gateway|deploy)\/[^/]+|services\/[^/]+\/src\/[^/]+)\//.exec(path);
  return m?.[1];
}

const idle = new Set(['(idle)', '(program)']);
const charged = new Map<string, number>();
const cache = new Map<number, string>();
let busy = 0;
let t = 0;
for (let i = 0; i < profile.samples.length; i++) {
  t += profile.timeDeltas[i]!;
  if (t < from || t > to) continue;
  const id = profile.samples[i]!;
  const leaf = byId.get(id)!;
  if (idle.has(leaf.callFrame.functionName)) continue;
  busy++;
  let where = cache.get(id);
  if (where === undefined) {
    where = leaf.callFrame.functionName === '(garbage collector)' ? 'garbage collector' : 'node and pg, no caller';
    for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
      const p = part(byId.get(n)!.callFrame.url);
      if (p) {
        where = p;
        break;
      }
    }
    cache.set(id, where);
  }
  charged.set(where, (charged.get(where) ?? 0) + 1);
}
console.log(`${busy} busy samples`);
for (const [where, n] of [...charged].sort((a, b) => b[1] - a[1])) console.log(`${((100 * n) / busy).toFixed(1).padStart(6)} %  ${where}`);
