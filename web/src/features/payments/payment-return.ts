// SPEC §4 Payment flow 3: which of the provider's return parameters arrived says what happened.

export type PaymentReturn =
  /** Paid or rejected at the form: commit the token. */
  | { kind: "commit"; token: string; buyOrder?: string }
  /** 'Anular' at the form (or failed there): commit TBK_TOKEN; the order shown is TBK_ORDEN_COMPRA. */
  | { kind: "aborted"; token: string; buyOrder?: string }
  /** The form timed out: only the order arrives; commit with token '-1'. */
  | { kind: "timeout"; buyOrder: string };

export const paymentReturnParams = ["token_ws", "TBK_TOKEN", "TBK_ORDEN_COMPRA", "TBK_ID_SESION"] as const;

export function readPaymentReturn(params: URLSearchParams): PaymentReturn | null {
  const tokenWs = params.get("token_ws")?.trim();
  const tbkToken = params.get("TBK_TOKEN")?.trim();
  const buyOrder = params.get("TBK_ORDEN_COMPRA")?.trim() || undefined;
  if (tokenWs) return { kind: "commit", token: tokenWs, buyOrder };
  if (tbkToken) return { kind: "aborted", token: tbkToken, buyOrder };
  if (buyOrder) return { kind: "timeout", buyOrder };
  return null;
}

/** The address without the provider's parameters (other query parameters kept), so a reload does not commit again. */
export function withoutPaymentParams(pathname: string, params: URLSearchParams): string {
  const rest = new URLSearchParams(params);
  for (const name of paymentReturnParams) rest.delete(name);
  const search = rest.toString();
  return search ? `${pathname}?${search}` : pathname;
}
