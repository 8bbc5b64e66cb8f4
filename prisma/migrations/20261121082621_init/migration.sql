-- Trigram search for the staff user search (User.searchText).
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "User" (
    "id" SERIAL NOT NULL,
    "rut" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "firstName" TEXT,
    "secondName" TEXT,
    "lastName" TEXT,
    "secondLastName" TEXT,
    "phoneNumber" TEXT,
    "birthDate" DATE,
    "roleType" INTEGER NOT NULL DEFAULT 2,
    "passwordHash" TEXT NOT NULL,
    "hasChangedPassword" BOOLEAN NOT NULL DEFAULT false,
    "dateTyc" TIMESTAMP(3),
    "tokenVersion" INTEGER NOT NULL DEFAULT 0,
    "searchText" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Clinic" (
    "code" INTEGER NOT NULL,
    "codeClinicStr" TEXT NOT NULL,
    "title" TEXT NOT NULL,

    CONSTRAINT "Clinic_pkey" PRIMARY KEY ("code")
);

-- CreateTable
CREATE TABLE "Privilege" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "codeClinicStr" TEXT NOT NULL,
    "idPermission" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Privilege_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Bill" (
    "id" SERIAL NOT NULL,
    "accountCode" TEXT NOT NULL,
    "createAccountIdDate" TIMESTAMP(3) NOT NULL,
    "amount" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "clinicCode" TEXT NOT NULL,
    "isPaid" BOOLEAN NOT NULL DEFAULT false,
    "status" TEXT NOT NULL DEFAULT 'Pendiente',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Bill_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "BillFile" (
    "id" SERIAL NOT NULL,
    "billId" INTEGER NOT NULL,
    "path" TEXT NOT NULL,
    "fileName" TEXT NOT NULL,
    "contentType" TEXT NOT NULL DEFAULT 'application/pdf',
    "size" INTEGER NOT NULL,
    "content" BYTEA NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "BillFile_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PaymentTransaction" (
    "id" SERIAL NOT NULL,
    "billId" INTEGER NOT NULL,
    "buyOrder" TEXT NOT NULL,
    "sessionId" TEXT NOT NULL,
    "token" TEXT,
    "amount" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'INITIALIZED',
    "responseCode" INTEGER,
    "authorizationCode" TEXT,
    "transactionDate" TIMESTAMP(3),
    "paymentTypeCode" TEXT,
    "installmentsNumber" INTEGER,
    "installmentsAmount" INTEGER,
    "cardNumber" TEXT,
    "vci" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "committedAt" TIMESTAMP(3),

    CONSTRAINT "PaymentTransaction_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PasswordResetToken" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PasswordResetToken_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TermsAcceptance" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "version" TEXT NOT NULL,
    "acceptedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ip" TEXT,

    CONSTRAINT "TermsAcceptance_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "LoginThrottle" (
    "key" TEXT NOT NULL,
    "windowStart" TIMESTAMP(3) NOT NULL,
    "failures" INTEGER NOT NULL,

    CONSTRAINT "LoginThrottle_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "AuditEvent" (
    "id" SERIAL NOT NULL,
    "actorId" INTEGER,
    "actorRole" INTEGER,
    "action" TEXT NOT NULL,
    "resource" TEXT NOT NULL,
    "resourceId" TEXT,
    "patientId" INTEGER,
    "before" JSONB,
    "after" JSONB,
    "outcome" TEXT NOT NULL DEFAULT 'ok',
    "ip" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AuditEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "User_rut_key" ON "User"("rut");

-- CreateIndex
CREATE INDEX "User_roleType_id_idx" ON "User"("roleType", "id");

-- CreateIndex
CREATE INDEX "User_searchText_idx" ON "User" USING GIN ("searchText" gin_trgm_ops);

-- CreateIndex
CREATE UNIQUE INDEX "Clinic_codeClinicStr_key" ON "Clinic"("codeClinicStr");

-- CreateIndex
CREATE UNIQUE INDEX "Privilege_userId_codeClinicStr_key" ON "Privilege"("userId", "codeClinicStr");

-- CreateIndex
CREATE INDEX "Bill_userId_createAccountIdDate_idx" ON "Bill"("userId", "createAccountIdDate");

-- CreateIndex
CREATE INDEX "Bill_clinicCode_createAccountIdDate_idx" ON "Bill"("clinicCode", "createAccountIdDate");

-- CreateIndex
CREATE UNIQUE INDEX "Bill_clinicCode_accountCode_key" ON "Bill"("clinicCode", "accountCode");

-- CreateIndex
CREATE UNIQUE INDEX "BillFile_path_key" ON "BillFile"("path");

-- CreateIndex
CREATE INDEX "BillFile_billId_idx" ON "BillFile"("billId");

-- CreateIndex
CREATE UNIQUE INDEX "PaymentTransaction_buyOrder_key" ON "PaymentTransaction"("buyOrder");

-- CreateIndex
CREATE UNIQUE INDEX "PaymentTransaction_token_key" ON "PaymentTransaction"("token");

-- CreateIndex
CREATE INDEX "PaymentTransaction_billId_idx" ON "PaymentTransaction"("billId");

-- CreateIndex
CREATE UNIQUE INDEX "PasswordResetToken_tokenHash_key" ON "PasswordResetToken"("tokenHash");

-- CreateIndex
CREATE INDEX "PasswordResetToken_userId_idx" ON "PasswordResetToken"("userId");

-- CreateIndex
CREATE INDEX "TermsAcceptance_userId_idx" ON "TermsAcceptance"("userId");

-- CreateIndex
CREATE INDEX "AuditEvent_createdAt_idx" ON "AuditEvent"("createdAt");

-- CreateIndex
CREATE INDEX "AuditEvent_actorId_createdAt_idx" ON "AuditEvent"("actorId", "createdAt");

-- AddForeignKey
ALTER TABLE "Privilege" ADD CONSTRAINT "Privilege_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Privilege" ADD CONSTRAINT "Privilege_codeClinicStr_fkey" FOREIGN KEY ("codeClinicStr") REFERENCES "Clinic"("codeClinicStr") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Bill" ADD CONSTRAINT "Bill_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Bill" ADD CONSTRAINT "Bill_clinicCode_fkey" FOREIGN KEY ("clinicCode") REFERENCES "Clinic"("codeClinicStr") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BillFile" ADD CONSTRAINT "BillFile_billId_fkey" FOREIGN KEY ("billId") REFERENCES "Bill"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PaymentTransaction" ADD CONSTRAINT "PaymentTransaction_billId_fkey" FOREIGN KEY ("billId") REFERENCES "Bill"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PasswordResetToken" ADD CONSTRAINT "PasswordResetToken_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TermsAcceptance" ADD CONSTRAINT "TermsAcceptance_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
