-- A connection started with `-c vellum.outbox_wake=local` wakes the relay of its own process once it commits
-- (enqueueOutbox): its inserts do not NOTIFY, which PostgreSQL serialises across every committing transaction.
CREATE OR REPLACE FUNCTION "outbox_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('vellum.outbox_wake', true) IS DISTINCT FROM 'local' THEN
    PERFORM pg_notify('vellum_outbox', '');
  END IF;
  RETURN NULL;
END $$;
