-- A change to a user that no list filters or counts by (anything but "roleType" and "searchText": phone, password,
-- terms, second factor…) is announced as "UserDetails:<id>": every instance drops the user's cached row, but keeps the
-- totals of the user and bill lists (server/lib/user-cache.ts). Under load, staff editing phone numbers made every
-- search count its matches again (issue 24). New and removed users, a new role or new search text stay "User:<id>".
CREATE OR REPLACE FUNCTION portal_announce_row_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  payload text;
BEGIN
  IF TG_LEVEL = 'STATEMENT' THEN
    payload := TG_TABLE_NAME || ':0';
  ELSIF TG_TABLE_NAME = 'Privilege' THEN
    payload := 'Privilege:' || COALESCE(NEW."userId", OLD."userId");
  ELSIF TG_TABLE_NAME = 'Session' THEN
    payload := 'Session:' || COALESCE(NEW."userId", OLD."userId");
  ELSIF TG_TABLE_NAME = 'PatientClinic' THEN
    -- A patient's clinics decide which executives see them: a change to the user, as far as caches go.
    payload := 'User:' || COALESCE(NEW."userId", OLD."userId");
  ELSIF TG_OP = 'UPDATE' AND NEW."roleType" IS NOT DISTINCT FROM OLD."roleType"
        AND NEW."searchText" IS NOT DISTINCT FROM OLD."searchText" THEN
    payload := 'UserDetails:' || NEW."id";
  ELSE
    payload := 'User:' || COALESCE(NEW."id", OLD."id");
  END IF;
  PERFORM pg_notify('portal_row_changes', payload);
  RETURN NULL;
END;
$$;
