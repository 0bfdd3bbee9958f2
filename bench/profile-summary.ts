// node --import tsx bench/profile-summary.ts <file.cpuprofile> [top=40] [fromSeconds] [toSeconds]
// Sums a V8 CPU profile (node --cpu-prof) per function: self time and inclusive time (a function counted once per
// sample even when it recurses), as shares of the busy (non-idle) samples, over the window [from, to] seconds of the
// profile (default all of it: pass the steady state, e.g. 5 25, to leave start-up and shutdown out; negative: seconds
// before the profile's end).
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
}

const [file, topArg, fromArg, toArg] = process.argv.slice(2);
const profile = JSON.parse(readFileSync(file!, 'utf8')) as Profile;
const top = Number(topArg ?? 40);
const total = profile.timeDeltas.reduce((a, b) => a + b, 0);
const at = (arg: string | undefined, dflt: number) => (arg === undefined ? dflt : Number(arg) < 0 ? total + Number(arg) * 1e6 : Number(arg) * 1e6);
const from = at(fromArg, -Infinity);
const to = at(toArg, Infinity);

const byId = new Map<number, Node>();
const parent = new Map<number, number>();
for (const n of profile.nodes) {
  byId.set(n.id, n);
  for (const c of n.children ?? []) parent.set(c, n.id);
}
const label = (n: Node) => {
  const f = n.callFrame;
  const url = f.url
    .replace(/^file:\/\//, '')
    .replace(/.*node_modules\//, '~/')
    .replace(/.*\/(libs|services|gateway|deploy)\//, '$1/');
  return `${f.functionName || '(anonymous)'} ${url}${url ? `:${f.lineNumber + 1}` : ''}`;
};
const self = new Map<string, number>();
const incl = new Map<string, number>();
let busy = 0;
let idle = 0;
let t = 0;
for (let i = 0; i < profile.samples.length; i++) {
  t += profile.timeDeltas[i] ?? 0;
  if (t < from || t > to) continue;
  const node = byId.get(profile.samples[i]!)!;
  const name = node.callFrame.functionName;
  if (name === '(idle)' || name === '(program)') {
    idle++;
    continue;
  }
  busy++;
  const leaf = label(node);
  self.set(leaf, (self.get(leaf) ?? 0) + 1);
  const seen = new Set<string>();
  for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
    const l = label(byId.get(id)!);
    if (seen.has(l)) continue;
    seen.add(l);
    incl.set(l, (incl.get(l) ?? 0) + 1);
  }
}
const pct = (x: number) => `${((100 * x) / busy).toFixed(1).padStart(5)} %`;
console.log(`${busy} busy samples, ${idle} idle/program (busy ${((100 * busy) / (busy + idle)).toFixed(0)} %)`);
console.log('\nself time');
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(v)}  ${k}`);
console.log('\ninclusive time');
for (const [k, v] of [...incl].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(v)}  ${k}`);
