// A V8 CPU profile (`node --cpu-prof`) read for the bench's summaries: its nodes by id, each node's parent, and the
// window of samples to count (`fromSeconds`/`toSeconds` as bench/profile-summary.ts takes them).
import { readFileSync } from 'node:fs';

export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
export interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The profile of `argv` `<file> [fromSeconds] [toSeconds]`, its nodes by id and each node's parent. */
export function readProfile(args: string[]) {
  const [file, fromArg, toArg] = args;
  const profile = JSON.parse(readFileSync(file!, 'utf8')) as Profile;
  const byId = new Map<number, ProfileNode>();
  const parent = new Map<number, number>();
  for (const n of profile.nodes) {
    byId.set(n.id, n);
    for (const c of n.children ?? []) parent.set(c, n.id);
  }
  return {
    profile,
    byId,
    parent,
    from: fromArg === undefined ? -Infinity : Number(fromArg) * 1e6,
    to: toArg === undefined ? Infinity : Number(toArg) * 1e6,
  };
}
