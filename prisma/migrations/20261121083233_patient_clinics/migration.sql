-- CreateTable
CREATE TABLE "PatientClinic" (
    "userId" INTEGER NOT NULL,
    "codeClinicStr" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PatientClinic_pkey" PRIMARY KEY ("userId","codeClinicStr")
);

-- CreateIndex
CREATE INDEX "PatientClinic_codeClinicStr_userId_idx" ON "PatientClinic"("codeClinicStr", "userId");

-- AddForeignKey
ALTER TABLE "PatientClinic" ADD CONSTRAINT "PatientClinic_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PatientClinic" ADD CONSTRAINT "PatientClinic_codeClinicStr_fkey" FOREIGN KEY ("codeClinicStr") REFERENCES "Clinic"("codeClinicStr") ON DELETE RESTRICT ON UPDATE CASCADE;
