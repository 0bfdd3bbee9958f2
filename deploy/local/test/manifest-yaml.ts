import fs from 'node:fs';
import { parseAllDocuments } from 'yaml';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Obj = Record<string, any>;

/** Every document of a file, parsed as Kubernetes and Compose do (YAML 1.1: 0440 is octal, `<<` merges). */
export function readYaml(file: string): Obj[] {
  const docs = parseAllDocuments(fs.readFileSync(file, 'utf8'), {
    version: '1.1',
    merge: true,
    uniqueKeys: true,
  });
  if (!Array.isArray(docs)) throw new Error(`${file}: not YAML documents`);
  const out: Obj[] = [];
  for (const d of docs) {
    if (d.errors.length) throw new Error(`${file}: ${d.errors.map((e) => e.message).join('; ')}`);
    const js = d.toJS({ maxAliasCount: 100 });
    if (js != null) out.push(js);
  }
  return out;
}
