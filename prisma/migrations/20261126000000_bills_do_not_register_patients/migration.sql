-- A bill no longer registers its patient with the bill's clinic (issue 23, finding 1): a registration gives that
-- clinic's executives rights over the patient's account, and a bill loaded for the purpose was a way to take them.
-- Registrations are made with the account, in the same transaction as the user row; the ones a bill added came later
-- and match a bill of that patient at that clinic. Those are removed here; the bills stay, visible to the clinic's staff.
DELETE FROM "PatientClinic" pc
USING "User" u
WHERE u."id" = pc."userId"
  AND pc."createdAt" > u."createdAt" + interval '1 minute'
  AND EXISTS (SELECT 1 FROM "Bill" b WHERE b."userId" = pc."userId" AND b."clinicCode" = pc."codeClinicStr");
