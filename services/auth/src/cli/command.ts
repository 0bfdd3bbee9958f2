import type { ParseArgsConfig } from 'node:util';

export type Options = NonNullable<ParseArgsConfig['options']>;
export type Values = Record<string, string | boolean | undefined>;

/** A command of the admin CLI: its help text, its flags, and what it does. */
export interface Command {
  name: string;
  summary: string;
  /** Usage line(s) after the command name, and a longer description. */
  usage: string;
  help: string;
  options: Options;
  /** Returns the exit code; throws CliError (or anything) for a one-line error. */
  run(values: Values, io: CliIo): Promise<number>;
}

export interface CliIo {
  out(line: string): void;
  /** The environment the configuration is read from (process.env in the real CLI). */
  env: Record<string, string | undefined>;
}

/** A mistake of the operator: printed as one line, exit code 2 (usage) or 1. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

/** A required flag, or a usage error naming it. */
export function required(values: Values, name: string): string {
  const v = values[name];
  if (typeof v !== 'string' || v === '') throw new CliError(`--${name} is required`, 2);
  return v;
}
