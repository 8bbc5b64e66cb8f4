-- AlterTable
ALTER TABLE "PaymentTransaction" ADD COLUMN     "payerId" INTEGER;

-- CreateTable
CREATE TABLE "CaregiverLink" (
    "id" SERIAL NOT NULL,
    "caregiverId" INTEGER NOT NULL,
    "dependentId" INTEGER NOT NULL,
    "relationship" TEXT NOT NULL,
    "documentSeen" TEXT NOT NULL,
    "minorUntil" DATE,
    "expiresOn" DATE NOT NULL,
    "parts" TEXT[],
    "createdById" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "renewedAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),
    "revokedById" INTEGER,

    CONSTRAINT "CaregiverLink_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "CaregiverLink_caregiverId_revokedAt_idx" ON "CaregiverLink"("caregiverId", "revokedAt");

-- CreateIndex
CREATE INDEX "CaregiverLink_dependentId_revokedAt_idx" ON "CaregiverLink"("dependentId", "revokedAt");

-- AddForeignKey
ALTER TABLE "CaregiverLink" ADD CONSTRAINT "CaregiverLink_caregiverId_fkey" FOREIGN KEY ("caregiverId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CaregiverLink" ADD CONSTRAINT "CaregiverLink_dependentId_fkey" FOREIGN KEY ("dependentId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
