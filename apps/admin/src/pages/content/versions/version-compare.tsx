import { useState } from 'preact/hooks';
import { ApiError } from '../../../api/client';
import { Alert } from '../../../ui/page';
import { RevisionDiff, same } from '../revision-diff';
import { versionLabel, versions, type Comparison, type Version } from './version-calls';

type Item = Record<string, unknown>;
const pick = (o: Item, fields: string[]) => Object.fromEntries(fields.map((f) => [f, o[f] ?? null]));

/**
 * The version against the live item, only the fields that differ (words marked as in the history), and — with
 * update permission — promote all or the chosen fields with the compare's mainHash: when the live item moved
 * since (422), nothing is promoted and the user compares again.
 */
export function VersionCompare(p: { version: Version; primaryKey: string; mayWrite: boolean; onPromoted: (fields: string[]) => void }) {
  const [result, setResult] = useState<{ c: Comparison; differing: string[] }>();
  const [chosen, setChosen] = useState(new Set<string>());
  const [error, setError] = useState<string>();
  const [stale, setStale] = useState(false);
  const label = versionLabel(p.version);
  const compare = async () => {
    setError(undefined);
    setStale(false);
    try {
      const c = await versions.compare(p.version.id);
      const differing = Object.keys(c.current ?? {}).filter((f) => f !== p.primaryKey && !same(c.current[f], c.main[f]));
      setResult({ c, differing });
      setChosen(new Set(differing));
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const promote = async (e: Event) => {
    e.preventDefault();
    if (!result) return;
    setError(undefined);
    const fields = result.differing.filter((f) => chosen.has(f));
    try {
      await versions.promote(p.version.id, result.c.mainHash, fields.length === result.differing.length ? undefined : fields);
      setResult(undefined);
      p.onPromoted(fields);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'VERSION_HASH_MISMATCH') setStale(true);
      else setError((err as Error).message);
    }
  };
  const toggle = (f: string, on: boolean) =>
    setChosen((s) => {
      const next = new Set(s);
      if (on) next.add(f);
      else next.delete(f);
      return next;
    });
  return (
    <section class="version-compare" aria-labelledby="version-compare-h">
      <h2 id="version-compare-h">Compare version {label} with the live item</h2>
      <button type="button" class="secondary" onClick={compare}>
        {result ? 'Compare again' : 'Compare with the live item'}
      </button>
      {error && <Alert>{error}</Alert>}
      {stale && (
        <Alert>
          The live item changed after you compared: nothing was promoted. Compare again to see its current values, then promote.{' '}
          <button type="button" onClick={compare}>
            Compare again now
          </button>
        </Alert>
      )}
      {result && result.c.outdated && <p class="hint">The live item was changed after this version was created.</p>}
      {result && result.differing.length === 0 && <p>The version has the live item's values: nothing to promote.</p>}
      {result && result.differing.length > 0 && (
        <>
          <RevisionDiff
            caption={`Version ${label} against the live item`}
            before={pick(result.c.main, result.differing)}
            after={pick(result.c.current, result.differing)}
            beforeLabel="Live item"
            afterLabel={`Version ${p.version.key}`}
          />
          {p.mayWrite && (
            <form onSubmit={promote}>
              <fieldset>
                <legend>Fields to promote to the live item</legend>
                <div class="checks">
                  {result.differing.map((f) => (
                    <label key={f}>
                      <input type="checkbox" checked={chosen.has(f)} onChange={(e) => toggle(f, e.currentTarget.checked)} /> Promote {f}
                    </label>
                  ))}
                </div>
              </fieldset>
              <button type="submit" disabled={chosen.size === 0}>
                {chosen.size === result.differing.length ? 'Promote all changes' : 'Promote chosen fields'}
              </button>
            </form>
          )}
        </>
      )}
    </section>
  );
}
