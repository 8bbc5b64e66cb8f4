// What the bill lists show and may be sorted by (SPEC §3, §9), without zod: the lists show before any form loads it
// (issue 14). bills.schemas.ts refuses any other sort with a 400, never passing it to the database.

/** A bill's 'Estado' as the lists, the API and the payment result say it. */
export const billStatusLabel = (isPaid: boolean) => (isPaid ? "Pagada" : "Pendiente");

export const patientSortFields = ["createAccountIdDate", "amount", "isPaid"] as const;
export const staffSortFields = ["accountCode", "createAccountIdDate", "amount", "rut", "firstName", "isPaid"] as const;
export type PatientSortField = (typeof patientSortFields)[number];
export type StaffSortField = (typeof staffSortFields)[number];
export const sortDirections = ["ASC", "DESC"] as const;
export type SortDirection = (typeof sortDirections)[number];
export const DEFAULT_SORT = { orderBy: "createAccountIdDate", direction: "DESC" } as const;
