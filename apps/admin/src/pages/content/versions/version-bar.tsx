import { useEffect, useState } from 'preact/hooks';
import { ConfirmButton } from '../../../ui/confirm-button';
import { Alert } from '../../../ui/page';
import { VersionForm } from './version-form';
import { versionLabel, versions, type Version } from './version-calls';

/**
 * The item's versions: a picker ("Main" = the live item, then each version), and — with update permission on the
 * collection — create, rename and delete (asked twice). Choosing one shows the item as that version has it.
 */
export function VersionBar(p: { collection: string; id: string; chosen?: Version; onChoose: (v: Version | undefined) => void; mayWrite: boolean }) {
  const [all, setAll] = useState<Version[]>([]);
  const [form, setForm] = useState<'new' | 'rename'>();
  const [error, setError] = useState<string>();
  // read again after each change, before the change is shown as chosen (the picker names it at once)
  const load = () => versions.of(p.collection, p.id).then(setAll, (err: Error) => setError(err.message));
  useEffect(() => void load(), [p.collection, p.id]);
  const choose = (v: Version | undefined) => {
    setForm(undefined);
    setError(undefined);
    p.onChoose(v);
  };
  const create = async (key: string, name: string) => {
    const v = await versions.create(p.collection, p.id, key, name);
    await load();
    choose(v);
  };
  const rename = async (key: string, name: string) => {
    const v = await versions.rename(p.chosen!.id, key, name);
    await load();
    choose(v);
  };
  const remove = async () => {
    try {
      await versions.remove(p.chosen!.id);
      await load();
      choose(undefined);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <section class="versions" aria-labelledby="versions-h">
      <h2 id="versions-h" class="sr-only">
        Versions
      </h2>
      {error && <Alert>{error}</Alert>}
      <div class="toolbar">
        <div class="field">
          <label for="version-pick">Version</label>
          <select id="version-pick" value={p.chosen?.id ?? ''} onChange={(e) => choose(all.find((v) => v.id === e.currentTarget.value))}>
            <option value="">Main (the live item)</option>
            {all.map((v) => (
              <option key={v.id} value={v.id}>
                {versionLabel(v)}
              </option>
            ))}
          </select>
        </div>
        {p.mayWrite && (
          <div class="actions">
            <button type="button" class="secondary" aria-expanded={form === 'new'} onClick={() => setForm(form === 'new' ? undefined : 'new')}>
              New version
            </button>
            {p.chosen && (
              <>
                <button type="button" class="secondary" aria-expanded={form === 'rename'} onClick={() => setForm(form === 'rename' ? undefined : 'rename')}>
                  Rename version
                </button>
                <ConfirmButton
                  label="Delete version"
                  question={`Delete version ${versionLabel(p.chosen)}? The live item stays as it is.`}
                  confirmLabel="Yes, delete the version"
                  onConfirm={remove}
                />
              </>
            )}
          </div>
        )}
      </div>
      {p.chosen && <p class="hint">The form shows the item as version {versionLabel(p.chosen)} has it: saving writes to the version, not to the live item.</p>}
      {form === 'new' && <VersionForm legend="New version of this item" submitLabel="Create version" onSubmit={create} onCancel={() => setForm(undefined)} />}
      {form === 'rename' && p.chosen && (
        <VersionForm
          key={p.chosen.id}
          legend={`Rename version ${versionLabel(p.chosen)}`}
          submitLabel="Save the new name"
          initial={p.chosen}
          onSubmit={rename}
          onCancel={() => setForm(undefined)}
        />
      )}
    </section>
  );
}
