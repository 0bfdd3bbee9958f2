export interface Clock {
  now(): Date;
}

export type FixedClock = Clock & { advance(ms: number): void; set(d: Date | string): void };

function toMillis(d: Date | string): number {
  const ms = (typeof d === 'string' ? new Date(d) : d).getTime();
  if (Number.isNaN(ms)) throw new RangeError(`fixedClock: invalid date ${String(d)}`);
  return ms;
}

/** A clock that only moves when told to. now() returns a fresh Date each time (callers may mutate it). */
export function fixedClock(start: Date | string): FixedClock {
  let current = toMillis(start);
  return {
    now: () => new Date(current),
    advance: (ms: number) => {
      current += ms;
    },
    set: (d: Date | string) => {
      current = toMillis(d);
    },
  };
}
