// The portal's one money formatter (issue 25) lives in the contract, so the server's documents (the payment receipt,
// the data export's summary) write amounts exactly as the screens do.
export { formatClp } from "@contract/money.ts";
