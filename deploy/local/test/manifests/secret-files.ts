import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Env } from './kustomize';
import { withSecretFiles } from './service-config';

/** `withSecretFiles` into a temporary folder the calling test file owns (made before its tests, removed after). */
export function secretFilesForThisFile(): (env: Env) => Env {
  let dir = '';
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vellum-manifests-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  return (env) => withSecretFiles(env, dir);
}
