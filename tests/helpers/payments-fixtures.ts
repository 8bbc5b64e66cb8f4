// The steps a browser takes at the Webpay mock's payment form (bills come from fixtures.ts createBill).

export const testCards = {
  visaApproved: { cardNumber: "4051885600446623", expiry: "12/30", cvv: "123", installments: "1" },
  visaInstallments: { cardNumber: "4051885600446623", expiry: "12/30", cvv: "123", installments: "3" },
  mastercardRejected: { cardNumber: "5186059559590568", expiry: "12/30", cvv: "123", installments: "1" },
  /** Redcompra débito through the bank simulator (payment type VD). */
  redcompraDebit: { cardNumber: "4051884239937763", rut: "11111111-1", password: "123", installments: "1" },
};

const formPost = (fields: Record<string, string>): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields).toString(),
  redirect: "manual",
});

/** Pays at the mock's form; returns the address the browser is sent back to. */
export async function payAtForm(mocksUrl: string, token: string, card: Record<string, string>): Promise<string> {
  const form = await fetch(`${mocksUrl}/webpay/webpayserver/initTransaction`, formPost({ token_ws: token }));
  if (form.status !== 200) throw new Error(`the form refused the token: ${form.status}`);
  await fetch(`${mocksUrl}/webpay/webpayserver/tarjeta`, formPost({ token, cardNumber: card.cardNumber! }));
  const back = await fetch(`${mocksUrl}/webpay/webpayserver/pagar`, formPost({ token, ...card }));
  if (back.status !== 303) throw new Error(`the form did not accept the card: ${back.status} ${await back.text()}`);
  return back.headers.get("location")!;
}

/** Presses 'Anular' at the mock's form; returns the page that posts back to the commerce. */
export async function abortAtForm(mocksUrl: string, token: string): Promise<string> {
  return (await fetch(`${mocksUrl}/webpay/webpayserver/anular`, formPost({ token }))).text();
}

export interface MockTransactionView {
  token: string;
  buyOrder: string;
  amount: number;
  returnUrl: string;
  status: string;
  calls: { commit: number; status: number; refund: number };
  paymentTypeCode: string | null;
  balance: number;
  refunds: Array<{ type: string; amount: number }>;
}

export async function mockTransaction(mocksUrl: string, token: string): Promise<MockTransactionView> {
  const list = (await (await fetch(`${mocksUrl}/webpay/mock/transactions`)).json()) as MockTransactionView[];
  const found = list.find((item) => item.token === token);
  if (!found) throw new Error("the mock does not know that token");
  return found;
}
