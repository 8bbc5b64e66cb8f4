-- Every committed change to a user, a staff privilege or the bills is announced on the channel portal_row_changes
-- ("User:<id>", "Privilege:<userId>", "Bill:0"), so each portal instance drops what it cached: the user's row, an
-- executive's clinics, list totals (server/lib/user-cache.ts).
-- NOTIFY is delivered at commit, never for a rolled-back change, whoever wrote the row (the portal, an operator command
-- or psql).
CREATE FUNCTION portal_announce_row_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  payload text;
BEGIN
  IF TG_LEVEL = 'STATEMENT' THEN
    payload := TG_TABLE_NAME || ':0';
  ELSIF TG_TABLE_NAME = 'Privilege' THEN
    payload := 'Privilege:' || COALESCE(NEW."userId", OLD."userId");
  ELSIF TG_TABLE_NAME = 'PatientClinic' THEN
    -- A patient's clinics decide which executives see them: a change to the user, as far as caches go.
    payload := 'User:' || COALESCE(NEW."userId", OLD."userId");
  ELSE
    payload := 'User:' || COALESCE(NEW."id", OLD."id");
  END IF;
  PERFORM pg_notify('portal_row_changes', payload);
  RETURN NULL;
END;
$$;

CREATE TRIGGER "User_announce_change" AFTER INSERT OR UPDATE OR DELETE ON "User"
  FOR EACH ROW EXECUTE FUNCTION portal_announce_row_change();

CREATE TRIGGER "Privilege_announce_change" AFTER INSERT OR UPDATE OR DELETE ON "Privilege"
  FOR EACH ROW EXECUTE FUNCTION portal_announce_row_change();

CREATE TRIGGER "PatientClinic_announce_change" AFTER INSERT OR UPDATE OR DELETE ON "PatientClinic"
  FOR EACH ROW EXECUTE FUNCTION portal_announce_row_change();

CREATE TRIGGER "Bill_announce_change" AFTER INSERT OR UPDATE OR DELETE ON "Bill"
  FOR EACH STATEMENT EXECUTE FUNCTION portal_announce_row_change();
