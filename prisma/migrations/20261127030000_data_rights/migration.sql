-- CreateEnum
CREATE TYPE "RightsRequestKind" AS ENUM ('rectification', 'email_opposition', 'account_closure');

-- CreateEnum
CREATE TYPE "RightsRequestStatus" AS ENUM ('received', 'in_progress', 'resolved', 'rejected');

-- CreateEnum
CREATE TYPE "DataExportStatus" AS ENUM ('preparing', 'ready', 'failed');

-- AlterTable
ALTER TABLE "User" ADD COLUMN     "closedAt" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "RightsRequest" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "kind" "RightsRequestKind" NOT NULL,
    "field" TEXT,
    "correctValue" TEXT,
    "details" TEXT NOT NULL DEFAULT '',
    "status" "RightsRequestStatus" NOT NULL DEFAULT 'received',
    "rejectionReason" TEXT,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dueAt" TIMESTAMP(3) NOT NULL,
    "handledById" INTEGER,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "RightsRequest_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DataExport" (
    "id" TEXT NOT NULL,
    "userId" INTEGER NOT NULL,
    "status" "DataExportStatus" NOT NULL DEFAULT 'preparing',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "readyAt" TIMESTAMP(3),
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "datosJson" TEXT,
    "labJson" TEXT,
    "summaryPdf" BYTEA,
    "billFileIds" INTEGER[] DEFAULT ARRAY[]::INTEGER[],

    CONSTRAINT "DataExport_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "RightsRequest_userId_receivedAt_idx" ON "RightsRequest"("userId", "receivedAt");

-- CreateIndex
CREATE INDEX "RightsRequest_status_dueAt_idx" ON "RightsRequest"("status", "dueAt");

-- CreateIndex
CREATE INDEX "DataExport_userId_createdAt_idx" ON "DataExport"("userId", "createdAt");

-- AddForeignKey
ALTER TABLE "RightsRequest" ADD CONSTRAINT "RightsRequest_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DataExport" ADD CONSTRAINT "DataExport_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
