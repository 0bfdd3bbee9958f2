-- Every change to the catalogue (collections, fields, relations) tells the items processes to drop the collection
-- definitions they keep in memory (catalogue-cache.ts): NOTIFY is sent at commit, once per transaction.
CREATE OR REPLACE FUNCTION public.vellum_catalogue_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('vellum_items_catalogue', '');
  RETURN NULL;
END $$;

CREATE TRIGGER collections_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON public."collections"
  FOR EACH STATEMENT EXECUTE FUNCTION public.vellum_catalogue_changed();
CREATE TRIGGER fields_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON public."fields"
  FOR EACH STATEMENT EXECUTE FUNCTION public.vellum_catalogue_changed();
CREATE TRIGGER relations_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON public."relations"
  FOR EACH STATEMENT EXECUTE FUNCTION public.vellum_catalogue_changed();
