import { useState } from 'preact/hooks';
import { api, ok } from '../../api/client';
import { useCollection, useCollections } from '../../data/collections';
import { relationalFields, useRelations } from '../../data/relations';
import { Link } from '../../router/link';
import { Alert, Page } from '../../ui/page';
import { useAsync } from '../../ui/use-async';
import { notFoundMessage } from '../content/not-found';
import { AddFieldForm } from './add-field-form';
import { AddRelationForm } from './add-relation-form';
import { DisplayTemplateForm } from './display-template-form';
import { FieldsSection } from './fields-section';
import { RelationsSection } from './relations-section';

/** The data model of one collection (administrators): its fields and relations, changed online through the schema API. */
export function DataModelPage({ collection }: { collection: string }) {
  const [tick, setTick] = useState(0);
  const meta = useCollection(collection, tick);
  const relations = useRelations(true);
  const collections = useCollections();
  const items = useAsync(async () => {
    const r = await ok(api.GET('/items/{collection}', { params: { path: { collection }, query: { limit: 0, meta: 'total_count' } } }));
    return (r.meta as { total_count?: number } | undefined)?.total_count;
  }, [collection, tick]);
  const [notice, setNotice] = useState<string>();
  const [error, setError] = useState<string>();
  const changed = (n: string) => {
    setError(undefined);
    setNotice(n);
    setTick((t) => t + 1);
    relations.reload();
    collections.reload();
  };
  const failed = (m: string) => {
    setNotice(undefined);
    setError(m);
    setTick((t) => t + 1);
    relations.reload();
  };
  const c = meta.value;
  const relational = c && relations.value ? relationalFields(collection, relations.value) : [];
  return (
    <Page title={`Data model of ${collection}`}>
      <p>
        <Link to={`/content/${collection}`}>Items of {collection}</Link> · <Link to="/content">All collections</Link>
      </p>
      {meta.error && <Alert>{notFoundMessage(meta.error, `Collection “${collection}”`)}</Alert>}
      {relations.error && <Alert>{relations.error.message}</Alert>}
      {error && <Alert>{error}</Alert>}
      {notice && <Alert kind="success">{notice}</Alert>}
      {c && (
        <>
          <FieldsSection collection={c} relational={relational} items={items.value} onChanged={changed} onError={failed} />
          <AddFieldForm collection={collection} onAdded={(f) => changed(`The field ${f} was added.`)} />
          <RelationsSection collection={collection} relational={relational} onChanged={changed} onError={failed} />
          {collections.value && <AddRelationForm collection={c} collections={collections.value} onAdded={changed} />}
          <DisplayTemplateForm key={`${tick}`} collection={c} onSaved={changed} />
        </>
      )}
    </Page>
  );
}
