import { z } from "zod";

// What the bill calls answer (SPEC §3 Bill, Bill file, list responses), shared with the web. The types are inferred
// from the schemas, which also describe the responses in the API document (/api/docs).

export { billStatusLabel } from "./bills.lists.ts";

export const ZBillDto = z.object({
  id: z.number().int(),
  accountCode: z.string(),
  createAccountIdDate: z.string().describe("Fecha ISO a medianoche UTC del día de la cuenta (se muestra DD-MM-YYYY en UTC)"),
  amount: z.number().int(),
  rut: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  isPaid: z.boolean(),
  status: z.string().describe("'Pendiente' o 'Pagada', según isPaid"),
  clinicCode: z.string(),
  filesCount: z.number().int(),
});
export type BillDto = z.infer<typeof ZBillDto>;

export const ZBillFileDto = z.object({ id: z.number().int(), fileName: z.string(), path: z.string(), size: z.number().int() });
export type BillFileDto = z.infer<typeof ZBillFileDto>;

/** SPEC §3 bill list response (patient). */
export const ZPatientBillsPage = z.object({ accounts: z.array(ZBillDto), page: z.number().int(), total: z.number().int() });
export type PatientBillsPage = z.infer<typeof ZPatientBillsPage>;

/** SPEC §3 admin list response. */
export const ZStaffBillsPage = z.object({ data: z.array(ZBillDto), page: z.number().int(), total: z.number().int() });
export type StaffBillsPage = z.infer<typeof ZStaffBillsPage>;

/** POST /files/create-account: the new bill, its id, the PDFs stored with it and the success message. */
export const ZCreatedBill = z.object({
  account: ZBillDto,
  accountId: z.number().int(),
  files: z.array(ZBillFileDto),
  message: z.string(),
});
export type CreatedBill = z.infer<typeof ZCreatedBill>;

/** GET /files/{path}: a short-lived signed link to the PDF. */
export const ZFileLink = z.object({ url: z.string(), fileName: z.string(), expiresAt: z.string() });
