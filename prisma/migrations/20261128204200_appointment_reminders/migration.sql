-- AlterTable
ALTER TABLE "NoticePreference" ADD COLUMN     "appointments" BOOLEAN NOT NULL DEFAULT true;
