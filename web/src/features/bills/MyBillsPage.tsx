import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Card } from "../../components/ui/Card.tsx";
import { PageTitle } from "../../components/ui/PageTitle.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { PayBillButton, usePaymentReturn } from "../payments/index.ts";

// TEMPORARY stand-in (payments branch): a plain list of the patient's bills so the card payment works end to end.
// The bills feature's real page replaces it; the payment pieces it needs are the two lines marked PAYMENTS below.

const formatDate = (iso: string) => {
  const date = new Date(iso);
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${pad(date.getUTCDate())}-${pad(date.getUTCMonth() + 1)}-${date.getUTCFullYear()}`;
};

export default function MyBillsPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  // PAYMENTS: commit a return from the provider, then reload the bills.
  const { settling } = usePaymentReturn(() => void queryClient.invalidateQueries({ queryKey: trpc.payments.myBills.queryKey() }));
  const bills = useQuery(trpc.payments.myBills.queryOptions(undefined, { enabled: !settling, staleTime: 0 }));

  return (
    <div className="bills-page">
      <PageTitle title="Cuentas hospitalarias" />
      <Card>
        <table className="data-table" aria-label="Cuentas hospitalarias">
          <thead>
            <tr>
              <th scope="col">Fecha</th>
              <th scope="col">Monto</th>
              <th scope="col">Estado</th>
              <th scope="col">Pagar</th>
            </tr>
          </thead>
          <tbody>
            {(bills.data ?? []).map((bill) => (
              <tr key={bill.id} data-testid={`bill-${bill.accountCode}`}>
                <td>{formatDate(bill.createAccountIdDate)}</td>
                <td>$ {bill.amount.toLocaleString("es-CL")}</td>
                <td>
                  <span className={`bill-status bill-status--${bill.isPaid ? "paid" : "pending"}`} aria-hidden="true">
                    ●
                  </span>{" "}
                  {bill.isPaid ? "Pagada" : "Pendiente"}
                </td>
                <td>
                  {/* PAYMENTS: the 'Pagar' column (renderPayAction slot of the real page). */}
                  <PayBillButton bill={bill} />
                </td>
              </tr>
            ))}
            {bills.data?.length === 0 ? (
              <tr>
                <td colSpan={4}>No tiene cuentas hospitalarias.</td>
              </tr>
            ) : null}
          </tbody>
        </table>
      </Card>
    </div>
  );
}
