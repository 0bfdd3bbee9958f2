import { useEffect, useState } from 'preact/hooks';
import { Field } from '../../../ui/field';
import { Alert } from '../../../ui/page';
import { versionLabel, versions, type Version } from './version-calls';

/** The browser's time zone, named and as an offset ("Europe/Berlin, UTC+01:00"): what a typed time means. */
export function localZone(at = new Date()): string {
  const off = -at.getTimezoneOffset();
  const hhmm = `${String(Math.floor(Math.abs(off) / 60)).padStart(2, '0')}:${String(Math.abs(off) % 60).padStart(2, '0')}`;
  return `${Intl.DateTimeFormat().resolvedOptions().timeZone}, UTC${off < 0 ? '-' : '+'}${hhmm}`;
}

/** A time as the user reads it, with its zone ("6 Dec 2026, 04:10:05 UTC"). */
const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'long' });

/** `<input type="datetime-local">` value for a time (local, to the second). */
const localInput = (d: Date) => new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 19);

/**
 * The chosen version's scheduled promote (issue 36): when and whether forced while it waits (Cancel), then its
 * outcome — done, or failed with the reason (an alert). With update permission: schedule or reschedule it at a
 * local time (the zone is named), optionally even if the live item changed since. Read again until it has run.
 */
export function VersionSchedule(p: { version: Version; mayWrite: boolean; onDone: () => void }) {
  const [v, setV] = useState<Version>();
  const [at, setAt] = useState(() => localInput(new Date(Date.now() + 3_600_000)));
  const [force, setForce] = useState(false);
  const [error, setError] = useState<string>();
  const [atError, setAtError] = useState<string>();
  const label = versionLabel(p.version);
  const load = () => versions.get(p.version.id).then(setV, (err: Error) => setError(err.message));
  useEffect(() => void load(), [p.version.id]);
  // while scheduled: look again shortly after publish_at (at most every 30 s); tell the page once it is done
  useEffect(() => {
    if (v?.publish_status !== 'scheduled' || !v.publish_at) return;
    const wait = Math.min(Math.max(Date.parse(v.publish_at) - Date.now() + 300, 1000), 30_000);
    const t = setTimeout(() => {
      versions.get(p.version.id).then(
        (next) => {
          setV(next);
          if (next.publish_status === 'done') p.onDone();
        },
        () => setV({ ...v }),
      );
    }, wait);
    return () => clearTimeout(t);
  }, [v]);
  const schedule = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    const time = new Date(at);
    if (!at || Number.isNaN(time.getTime())) return setAtError('Give a date and time (e.g. 2026-12-24 08:00).');
    setAtError(undefined);
    try {
      setV(await versions.schedule(p.version.id, time.toISOString(), force));
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const cancel = async () => {
    setError(undefined);
    try {
      setV(await versions.schedule(p.version.id, null));
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const status = v?.publish_status;
  return (
    <section class="version-schedule" aria-labelledby="version-schedule-h">
      <h2 id="version-schedule-h">Scheduled promote of version {label}</h2>
      {error && <Alert>{error}</Alert>}
      {status === 'failed' && (
        // one string: the alert keeps its focus only while its text is the same
        <Alert>{`The scheduled promote of version ${label} at ${when(v!.publish_at!)} failed: nothing was promoted. Reason: ${v!.publish_error}`}</Alert>
      )}
      {status === 'done' && (
        <Alert kind="success">{`The scheduled promote of version ${label} at ${when(v!.publish_at!)} is done: the live item has the version's values.`}</Alert>
      )}
      {status === 'scheduled' && (
        <div class="toolbar">
          <p role="status">
            Promote scheduled for <time dateTime={v!.publish_at!}>{when(v!.publish_at!)}</time>,{' '}
            {v!.publish_force ? 'even if the live item changed since.' : 'only if the live item has not changed since.'}
          </p>
          {p.mayWrite && (
            <button type="button" class="secondary" onClick={cancel}>
              Cancel scheduled promote
            </button>
          )}
        </div>
      )}
      {v && !status && <p class="hint">No promote is scheduled for this version.</p>}
      {p.mayWrite && v && (
        <form onSubmit={schedule} noValidate>
          <fieldset>
            <legend>{status === 'scheduled' ? 'Reschedule the promote' : 'Schedule a promote of all its changes'}</legend>
            <Field
              id="version-publish-at"
              label="Promote at"
              hint={`Your time zone: ${localZone()}.`}
              type="datetime-local"
              step={1}
              value={at}
              error={atError}
              onInput={(e) => setAt(e.currentTarget.value)}
            />
            <div class="checks">
              <label>
                <input type="checkbox" checked={force} onChange={(e) => setForce(e.currentTarget.checked)} /> Promote even if the live item changed
              </label>
            </div>
            <button type="submit">{status === 'scheduled' ? 'Reschedule promote' : 'Schedule promote'}</button>
          </fieldset>
        </form>
      )}
    </section>
  );
}
