-- Sessions (issue 23, finding 3): 'Cerrar sesión' ends the session on the server, and every instance refuses its
-- tokens at once.

-- CreateTable
CREATE TABLE "Session" (
    "id" TEXT NOT NULL,
    "userId" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "userAgent" TEXT NOT NULL DEFAULT '',
    "ip" TEXT NOT NULL DEFAULT '',
    "endedAt" TIMESTAMP(3),
    "endReason" TEXT,

    CONSTRAINT "Session_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Session_userId_endedAt_idx" ON "Session"("userId", "endedAt");

-- AddForeignKey
ALTER TABLE "Session" ADD CONSTRAINT "Session_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A session made or ended is announced as "Session:<userId>", so every instance drops the user's cached sessions.
-- lastSeenAt updates are not announced: they change nothing a cache keeps.
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
  ELSE
    payload := 'User:' || COALESCE(NEW."id", OLD."id");
  END IF;
  PERFORM pg_notify('portal_row_changes', payload);
  RETURN NULL;
END;
$$;

CREATE TRIGGER "Session_announce_change" AFTER INSERT OR DELETE OR UPDATE OF "endedAt" ON "Session"
  FOR EACH ROW EXECUTE FUNCTION portal_announce_row_change();
