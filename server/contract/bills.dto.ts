// What the bill calls answer (SPEC §3 Bill, Bill file, list responses), shared with the web.

export const billStatusLabel = (isPaid: boolean) => (isPaid ? "Pagada" : "Pendiente");

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
