import type { Prisma } from "../../generated/prisma/client.ts";
import { billStatusLabel, type BillDto } from "../../contract/bills.dto.ts";

export type { BillDto, BillFileDto, PatientBillsPage, StaffBillsPage } from "../../contract/bills.dto.ts";

// What the bill calls answer (SPEC §3 Bill, Bill file). File bytes are never selected here: lists and details carry
// only names and ids; the bytes leave the database only in the download route.

export const billDtoSelect = {
  id: true,
  accountCode: true,
  createAccountIdDate: true,
  amount: true,
  isPaid: true,
  clinicCode: true,
  filesCount: true,
  user: { select: { rut: true, firstName: true, lastName: true } },
} as const satisfies Prisma.BillSelect;

export type BillRow = Prisma.BillGetPayload<{ select: typeof billDtoSelect }>;

/**
 * The DTO of a bill row. The file count is the bill's own column, kept by a trigger on BillFile (migration
 * bill_files_count): Prisma's `_count` would aggregate the whole BillFile table on every list.
 */
export function toBillDto(row: BillRow): BillDto {
  return {
    id: row.id,
    accountCode: row.accountCode,
    createAccountIdDate: row.createAccountIdDate.toISOString(),
    amount: row.amount,
    rut: row.user.rut,
    firstName: row.user.firstName,
    lastName: row.user.lastName,
    isPaid: row.isPaid,
    status: billStatusLabel(row.isPaid),
    clinicCode: row.clinicCode,
    filesCount: row.filesCount,
  };
}

export const billFileDtoSelect = { id: true, fileName: true, path: true, size: true } as const satisfies Prisma.BillFileSelect;
