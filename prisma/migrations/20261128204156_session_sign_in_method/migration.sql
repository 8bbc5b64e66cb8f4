-- How a session was opened (issue 43): "password" or "claveunica". A patient who came through ClaveÚnica is not asked
-- to replace the temporary password (server/http/authenticate.ts, firstLoginRefusal); existing sessions were all password.
-- AlterTable
ALTER TABLE "Session" ADD COLUMN     "signInMethod" TEXT NOT NULL DEFAULT 'password';
