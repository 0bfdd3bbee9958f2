/** Positional parameters of one SQL statement: every value goes here, never into the text. */
export class Params {
  readonly values: unknown[] = [];
  /** `$n` for a value, with an optional cast (`$3::int8`). */
  add(value: unknown, cast?: string): string {
    this.values.push(value);
    return cast ? `$${this.values.length}::${cast}` : `$${this.values.length}`;
  }
}

export interface Sql {
  text: string;
  values: unknown[];
}
