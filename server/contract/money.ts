// The portal's one money formatter (issue 25), shared by the screens (web/src/lib/money.ts) and the PDFs the server
// writes (the payment receipt). SPEC §9: Chilean pesos shown as '$ ' plus the locale-formatted number; no decimals.

const pesos = new Intl.NumberFormat("es-CL", { maximumFractionDigits: 0 });

/** 1234567 → '$ 1.234.567'. */
export function formatClp(amount: number): string {
  return `$ ${pesos.format(amount)}`;
}
