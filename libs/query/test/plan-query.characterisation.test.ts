import { readFileSync } from 'node:fs';
import path from 'node:path';
import { planCases, runCase, type PlanCase } from './plan-cases';

// plan-snapshots.json: one case per line, written by write-plan-snapshots.ts from the planner before its split.
const recorded = readFileSync(path.join(__dirname, 'plan-snapshots.json'), 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as PlanCase & { out: unknown });

describe('planQuery characterisation (the same SQL, parameters, shapes and errors as recorded)', () => {
  it('has the recorded inputs', () => {
    const inputs = planCases().map((c) => JSON.parse(JSON.stringify(c)));
    expect(inputs).toEqual(recorded.map(({ out: _out, ...c }) => c));
    expect(recorded.length).toBeGreaterThan(1000);
  });
  it('plans every recorded input as recorded', () => {
    const differing: unknown[] = [];
    for (const c of recorded) {
      const out = runCase(c);
      if (JSON.stringify(out) !== JSON.stringify(c.out)) differing.push({ case: c, now: out });
    }
    expect(differing.slice(0, 3)).toEqual([]);
  });
});
