// Apart from caregivers.ts (zod) because every tRPC call of the web app sends it, the login page's too: importing it
// from there put zod into the login's first load (issue 26, 110 KB against the 100 KB budget).

/** The request header naming the patient a caregiver acts for (REST and tRPC alike); absent = the caller themself. */
export const ACTING_FOR_HEADER = "X-Actuar-Por";
