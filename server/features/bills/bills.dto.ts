import type { Prisma } from "../../generated/prisma/client.ts";

// What the bill calls answer (SPEC §3 Bill, Bill file). File bytes are never selected here: lists and details carry
// only names and ids; the bytes leave the database only in the download route.

export const billStatusLabel = (isPaid: boolean) => (isPaid ? "Pagada" : "Pendiente");

export const billDtoSelect = {
  id: true,
  accountCode: true,
  createAccountIdDate: true,
  amount: true,
  isPaid: true,
  clinicCode: true,
  user: { select: { rut: true, firstName: true, lastName: true } },
} as const satisfies Prisma.BillSelect;

export type BillRow = Prisma.BillGetPayload<{ select: typeof billDtoSelect }>;

export interface BillDto {
  id: number;
  accountCode: string;
  /** ISO timestamp at midnight UTC of the bill's day (shown DD-MM-YYYY in UTC). */
  createAccountIdDate: string;
  amount: number;
  rut: string;
  firstName: string | null;
  lastName: string | null;
  isPaid: boolean;
  /** 'Pendiente' or 'Pagada', derived from isPaid. */
  status: string;
  clinicCode: string;
  filesCount: number;
}

/**
 * The DTO of a bill row. The file count comes separately (filesCountByBill: one grouped query per page over the
 * BillFile billId index; Prisma's `_count` would aggregate the whole BillFile table on every list).
 */
export function toBillDto(row: BillRow, filesCount = 0): BillDto {
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
    filesCount,
  };
}

export const billFileDtoSelect = { id: true, fileName: true, path: true, size: true } as const satisfies Prisma.BillFileSelect;

export interface BillFileDto {
  id: number;
  fileName: string;
  path: string;
  size: number;
}

/** SPEC §3 bill list response (patient). */
export interface PatientBillsPage {
  accounts: BillDto[];
  page: number;
  total: number;
}

/** SPEC §3 admin list response. */
export interface StaffBillsPage {
  data: BillDto[];
  page: number;
  total: number;
}
