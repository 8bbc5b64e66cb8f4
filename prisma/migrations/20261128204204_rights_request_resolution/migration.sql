-- Issue 45 §5: a finished request says when it was finished and what was done (the datum a rectification changed, or
-- staff's note). Requests finished before this migration take their last change as the day they were finished.
-- AlterTable
ALTER TABLE "RightsRequest" ADD COLUMN     "resolution" TEXT,
ADD COLUMN     "resolvedAt" TIMESTAMP(3);

UPDATE "RightsRequest" SET "resolvedAt" = "updatedAt" WHERE "status" IN ('resolved', 'rejected');
