-- DropIndex
DROP INDEX "Bill_clinicCode_createAccountIdDate_idx";

-- DropIndex
DROP INDEX "Bill_userId_createAccountIdDate_idx";

-- AlterTable
ALTER TABLE "Bill" DROP COLUMN "status";

-- CreateIndex
CREATE INDEX "Bill_userId_createAccountIdDate_id_idx" ON "Bill"("userId", "createAccountIdDate", "id");

-- CreateIndex
CREATE INDEX "Bill_userId_amount_id_idx" ON "Bill"("userId", "amount", "id");

-- CreateIndex
CREATE INDEX "Bill_userId_isPaid_id_idx" ON "Bill"("userId", "isPaid", "id");

-- CreateIndex
CREATE INDEX "Bill_clinicCode_createAccountIdDate_id_idx" ON "Bill"("clinicCode", "createAccountIdDate", "id");

-- CreateIndex
CREATE INDEX "Bill_clinicCode_amount_id_idx" ON "Bill"("clinicCode", "amount", "id");

-- CreateIndex
CREATE INDEX "Bill_clinicCode_isPaid_id_idx" ON "Bill"("clinicCode", "isPaid", "id");

-- CreateIndex
CREATE INDEX "Bill_createAccountIdDate_id_idx" ON "Bill"("createAccountIdDate", "id");

-- CreateIndex
CREATE INDEX "Bill_amount_id_idx" ON "Bill"("amount", "id");

-- CreateIndex
CREATE INDEX "Bill_accountCode_id_idx" ON "Bill"("accountCode", "id");

-- CreateIndex
CREATE INDEX "Bill_isPaid_id_idx" ON "Bill"("isPaid", "id");
