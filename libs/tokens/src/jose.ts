import type * as Jose from 'jose' with { 'resolution-mode': 'import' };

type JoseLib = typeof Jose;
let lib: Promise<JoseLib> | undefined;

/**
 * jose 6 is ESM-only: loaded once with import() (Node runs it from CommonJS; Jest compiles it, see jest.preset.js;
 * the bundles keep it external like any other dependency).
 */
export const jose = (): Promise<JoseLib> => (lib ??= import('jose'));
