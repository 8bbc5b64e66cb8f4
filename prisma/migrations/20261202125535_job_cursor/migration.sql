-- Issue 46: where the search for new results goes on from (see JobCursor in schema.prisma).
-- CreateTable
CREATE TABLE "JobCursor" (
    "job" TEXT NOT NULL,
    "afterId" INTEGER NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "JobCursor_pkey" PRIMARY KEY ("job")
);
