// The portal's one money formatter (issue 25), shared by the screens (web/src/lib/money.ts) and the documents the
// server writes (the payment receipt, the data export's summary). SPEC §9: Chilean pesos shown as '$ ' plus the
// locale-formatted number; the peso has no decimals.

const pesos = new Intl.NumberFormat("es-CL", { maximumFractionDigits: 0 });

/** 1234567 → '$ 1.234.567'. */
export function formatClp(amount: number): string {
  return `$ ${pesos.format(amount)}`;
}
