-- CreateTable
CREATE TABLE "NoticePreference" (
    "userId" INTEGER NOT NULL,
    "results" BOOLEAN NOT NULL DEFAULT true,
    "bills" BOOLEAN NOT NULL DEFAULT true,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "NoticePreference_pkey" PRIMARY KEY ("userId")
);

-- CreateTable
CREATE TABLE "SentNotice" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "ref" TEXT NOT NULL,
    "sentAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SentNotice_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "SentNotice_userId_kind_ref_key" ON "SentNotice"("userId", "kind", "ref");

-- AddForeignKey
ALTER TABLE "NoticePreference" ADD CONSTRAINT "NoticePreference_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SentNotice" ADD CONSTRAINT "SentNotice_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
