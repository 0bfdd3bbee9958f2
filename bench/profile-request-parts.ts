// node --import tsx bench/profile-request-parts.ts <file.cpuprofile> [fromSeconds] [toSeconds]
// Where a read's time goes by step of the request (bench/README.md, "Reads across relations"): each busy sample is
// charged to the first step below that appears anywhere on its stack (so a statement's socket write is "pg: send",
// a response's is "JSON + response write", whoever called them); the window as bench/profile-summary.ts takes it.
import { readProfile, type ProfileNode as Node } from './cpu-profile';

const { profile: p, byId, parent, from, to } = readProfile(process.argv.slice(2));
const name = (n: Node) => `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url}`;
const on = (re: RegExp) => (stack: Node[]) => stack.some((n) => re.test(name(n)));
// in order: the first that matches takes the sample
const STEPS: [string, (stack: Node[]) => boolean][] = [
  ['garbage collector', (s) => s[0]!.callFrame.functionName === '(garbage collector)'],
  ['pg: send statements (socket writes)', on(/^submit .*pg\/lib\/query\.js/)],
  ['pg: receive answers, parse rows', on(/pg-protocol|pg\/lib\/(result|query|connection|client)\.js|pg-types/)],
  ['JSON serialization + response write', on(/json-text\.ts|serialize-rows\.ts/)],
  ['query planning (readPlan: parse, schema, planQuery)', on(/^readPlan /)],
  ['row shaping, children placed', on(/shape-rows|read-children|read-embedded/)],
  ['authentication (libs/tokens)', on(/libs\/tokens/)],
  ['permissions (access rules)', on(/access-rules/)],
  ['gateway hop, and the service pipeline it runs in-process', on(/\/gateway\/src/)],
  ['items service, other', on(/services\/items/)],
  ['express / router', on(/node_modules\/(express|router)/)],
  ['libs/http', on(/libs\/http/)],
  ['node http server (requests, sockets)', on(/_http_|node:net|stream/)],
];
let t = 0;
let busy = 0;
const counts = new Map<string, number>();
for (let i = 0; i < p.samples.length; i++) {
  t += p.timeDeltas[i]!;
  if (t < from || t > to) continue;
  const leaf = byId.get(p.samples[i]!)!;
  if (leaf.callFrame.functionName === '(idle)' || leaf.callFrame.functionName === '(program)') continue;
  busy++;
  const stack: Node[] = [];
  for (let id: number | undefined = p.samples[i]; id !== undefined; id = parent.get(id)) stack.push(byId.get(id)!);
  const step = STEPS.find(([, matches]) => matches(stack))?.[0] ?? 'other (microtasks, timers, node)';
  counts.set(step, (counts.get(step) ?? 0) + 1);
}
console.log(`${busy} busy samples`);
for (const [step, n] of [...counts].sort((a, b) => b[1] - a[1])) console.log(`${((100 * n) / busy).toFixed(1).padStart(5)} %  ${step}`);
