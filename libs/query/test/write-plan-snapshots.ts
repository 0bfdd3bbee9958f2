// Writes plan-snapshots.json from the planner as it is now: run it only for an intended change of the SQL, and
// review the diff (see plan-cases.ts).   node --import tsx libs/query/test/write-plan-snapshots.ts
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { planCases, runCase } from './plan-cases';

const cases = planCases().map((c) => ({ ...c, out: runCase(c) }));
writeFileSync(path.join(__dirname, 'plan-snapshots.json'), `${cases.map((c) => JSON.stringify(c)).join('\n')}\n`);
console.log(`${cases.length} cases written`);
