import { readFileSync } from 'node:fs';
import { z } from 'zod';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export type Env = Record<string, string | undefined>;

/**
 * Parse environment variables against a zod shape whose keys are the variable names. `<NAME>_FILE` is read
 * (trimmed) as the value of NAME when NAME itself is unset, so secrets can come from mounted files. Every
 * problem is reported at once, each naming its variable; nothing is half-parsed.
 */
export function loadConfig<S extends z.ZodRawShape>(shape: S, env: Env = process.env): z.infer<z.ZodObject<S>> {
  const input: Record<string, string | undefined> = {};
  const problems: string[] = [];
  for (const key of Object.keys(shape)) {
    let value = env[key];
    const file = env[`${key}_FILE`];
    if (value === undefined && file) {
      try {
        value = readFileSync(file, 'utf8').trim();
      } catch (e) {
        problems.push(`${key}_FILE: cannot read "${file}" (${(e as Error).message})`);
      }
    }
    input[key] = value === '' ? undefined : value;
  }
  const result = z.object(shape).safeParse(input);
  if (!result.success) {
    for (const issue of result.error.issues) {
      const name = issue.path.join('.');
      problems.push(`${name}: ${input[name] === undefined ? 'is required' : issue.message}`);
    }
  }
  if (problems.length) throw new ConfigError(problems);
  return (result as { data: z.infer<z.ZodObject<S>> }).data;
}
