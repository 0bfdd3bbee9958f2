/** NATS subject matching: `*` matches one token, `>` (last) matches one or more. */
export function subjectMatches(pattern: string, subject: string): boolean {
  const p = pattern.split('.');
  const s = subject.split('.');
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '>') return s.length > i;
    if (i >= s.length) return false;
    if (p[i] !== '*' && p[i] !== s[i]) return false;
  }
  return p.length === s.length;
}

const token = /^[^\s.*>]+$/;

/** Rejects subjects a publisher may not use (empty tokens, wildcards, whitespace). */
export function assertPublishSubject(subject: string): void {
  if (!subject.split('.').every((t) => token.test(t))) throw new Error(`invalid subject "${subject}"`);
}

export function assertName(kind: string, name: string): void {
  if (!/^[A-Za-z0-9_-]+$/.test(name)) throw new Error(`invalid ${kind} name "${name}" (use [A-Za-z0-9_-])`);
}

export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  return typeof err === 'string' ? err : (JSON.stringify(err) ?? String(err));
}
