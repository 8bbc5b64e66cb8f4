-- Stored phones in one form, E.164 (issue 33): new saves are normalised by normalizePhone (server/contract/validation.ts);
-- this converts the phones saved before it, where the number is unambiguously Chilean. Spaces, dots, parentheses and
-- dashes are ignored; what remains must be a national number of nine digits — a mobile (9 XXXX XXXX) or a landline
-- with its area code (2 XXXX XXXX in Santiago, 32 XXX XXXX in Valparaíso…: first digit 2 to 7) — alone or after 56 or
-- +56. Everything else stays as it was: eight-digit numbers (an old mobile without its 9, or an old landline without
-- its area code, cannot be told apart), foreign numbers, 600/800 numbers, and anything with other signs.
UPDATE "User"
SET "phoneNumber" = '+56' || right(regexp_replace("phoneNumber", '[[:space:]().-]', '', 'g'), 9)
WHERE regexp_replace("phoneNumber", '[[:space:]().-]', '', 'g') ~ '^(\+?56)?[2-79][0-9]{8}$'
  AND "phoneNumber" <> '+56' || right(regexp_replace("phoneNumber", '[[:space:]().-]', '', 'g'), 9);
