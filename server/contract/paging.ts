// Page sizes of every list (SPEC §9), without zod: the web's paginators and lists use them before any form loads
// zod (issue 14). The schemas that enforce them are in params.ts and bills.schemas.ts.

/** SPEC §9 page size, and the most rows one page may ask for. */
export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;
