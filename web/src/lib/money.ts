// The portal's one money formatter (issue 25) lives in the contract, so the server's PDFs (the payment receipt) write
// amounts exactly as the screens do.
export { formatClp } from "@contract/money.ts";
