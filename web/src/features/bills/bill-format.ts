import { formatClp } from "../../lib/money.ts";

// The bills screens' texts. Amounts and days are shown by lib/money.ts and lib/dates.ts (SPEC §9).

/** What the patient still owes, as the bills page and 'Mi cuenta' say it: 'Total por pagar: $ 123.456'. */
export function totalToPayText(total: number): string {
  return `Total por pagar: ${formatClp(total)}`;
}

/** The bill's day as YYYY-MM-DD for a date input. */
/**
 * The attachments button's text, 'Adjuntos (2)'. Its accessible name starts with it and adds the account (WCAG 2.5.3
 * Label in Name: what is seen is what a voice-control user says).
 */
export function attachmentsText(bill: { filesCount: number }): string {
  return `Adjuntos${bill.filesCount ? ` (${bill.filesCount})` : ""}`;
}

export function billDateInputValue(iso: string): string {
  return iso.slice(0, 10);
}

export const billScreenMessages = {
  listFailed: "error de sistema vuelva a intentarlo",
  loadFailed: "Hubo un error al procesar la solicitud, por favor intente más tarde",
  uploadFailed: "Error al subir los archivos",
  deleteFailed: "error de sistema vuelva a intentarlo",
  none: "No hay cuentas hospitalarias",
  noFiles: "Esta cuenta no tiene documentos adjuntos",
  alreadyPaid: "Esta cuenta ya está pagada",
} as const;
