// Display rules of SPEC §9 for bills: amounts in Chilean pesos, dates DD-MM-YYYY in UTC.

/** '$ ' plus the es-CL number: 1234567 → '$ 1.234.567'. */
export function formatClp(amount: number): string {
  return `$ ${amount.toLocaleString("es-CL", { maximumFractionDigits: 0 })}`;
}

/** The bill's day as DD-MM-YYYY, read in UTC (the stored midnight never slides to the previous day). */
export function formatBillDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${pad(date.getUTCDate())}-${pad(date.getUTCMonth() + 1)}-${date.getUTCFullYear()}`;
}

/** The bill's day as YYYY-MM-DD for a date input. */
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
