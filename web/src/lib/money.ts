// The portal's one money formatter (issue 25), kept in the contract so the server's documents write money the same way.
export { formatClp } from "@contract/money.ts";
