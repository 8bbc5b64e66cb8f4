-- AlterTable
ALTER TABLE "LoginThrottle" ADD COLUMN     "lockedUntil" TIMESTAMP(3);
