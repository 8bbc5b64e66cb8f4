-- Every committed change to a user or a staff privilege is announced on the channel portal_row_changes
-- ("User:<id>", "Privilege:<userId>"), so each portal instance drops what it cached about that user (session-cache.ts).
-- NOTIFY is delivered at commit, never for a rolled-back change, whoever wrote the row (the portal, an operator command
-- or psql).
CREATE FUNCTION portal_announce_row_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed_id integer;
BEGIN
  IF TG_TABLE_NAME = 'Privilege' THEN
    changed_id := COALESCE(NEW."userId", OLD."userId");
  ELSE
    changed_id := COALESCE(NEW."id", OLD."id");
  END IF;
  PERFORM pg_notify('portal_row_changes', TG_TABLE_NAME || ':' || changed_id);
  RETURN NULL;
END;
$$;

CREATE TRIGGER "User_announce_change" AFTER UPDATE OR DELETE ON "User"
  FOR EACH ROW EXECUTE FUNCTION portal_announce_row_change();

CREATE TRIGGER "Privilege_announce_change" AFTER INSERT OR UPDATE OR DELETE ON "Privilege"
  FOR EACH ROW EXECUTE FUNCTION portal_announce_row_change();
