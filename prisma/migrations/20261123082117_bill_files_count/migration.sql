-- A bill's number of PDFs, kept here by the database so bill lists read it with the bill instead of counting BillFile
-- rows for every page. The trigger sees every write (the portal, operator commands, psql, cascades).
ALTER TABLE "Bill" ADD COLUMN     "filesCount" INTEGER NOT NULL DEFAULT 0;

UPDATE "Bill" SET "filesCount" = counted.n
FROM (SELECT "billId", COUNT(*)::int AS n FROM "BillFile" GROUP BY "billId") AS counted
WHERE counted."billId" = "Bill"."id";

CREATE FUNCTION portal_count_bill_files() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    UPDATE "Bill" SET "filesCount" = "filesCount" - 1 WHERE "id" = OLD."billId";
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    UPDATE "Bill" SET "filesCount" = "filesCount" + 1 WHERE "id" = NEW."billId";
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "BillFile_count" AFTER INSERT OR DELETE OR UPDATE OF "billId" ON "BillFile"
  FOR EACH ROW EXECUTE FUNCTION portal_count_bill_files();
