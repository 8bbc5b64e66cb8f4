import { Link } from "react-router";
import { usePendingBills } from "./api/bills.api.ts";
import { totalToPayText } from "./bill-format.ts";
import "./bills.css";

/**
 * The short summary of what a patient still owes, at the top of 'Mi cuenta' (issue 33): how many bills are pending,
 * 'Total por pagar' and a link to pay them. Says nothing if the count fails (the bills page tells
 * that failure): the account page must not depend on it.
 */
export function PendingBillsSummary({ payPath }: { payPath: string }) {
  const pending = usePendingBills({ ownAccount: true });
  // While asking, the summary already takes its room, so the sections under it do not jump down (issue 26). Its
  // waiting text is not a live region: arriving at 'Mi cuenta', a screen reader says the screen's name and nothing
  // else (issue 29's Orca review).
  if (pending.isPending)
    return (
      <section className="summary-card pending-summary pending-summary--loading" aria-labelledby="pending-summary-title">
        <h2 id="pending-summary-title" className="summary-card__title pending-summary__title">
          Cuentas por pagar
        </h2>
        <p>Consultando sus cuentas…</p>
      </section>
    );
  if (!pending.data) return null;
  const { count, total } = pending.data;
  return (
    <section className="summary-card pending-summary" aria-labelledby="pending-summary-title">
      <h2 id="pending-summary-title" className="summary-card__title pending-summary__title">
        Cuentas por pagar
      </h2>
      {count === 0 ? (
        <p>No tiene cuentas hospitalarias pendientes de pago.</p>
      ) : (
        <>
          <p>
            {count === 1 ? "Tiene 1 cuenta hospitalaria pendiente." : `Tiene ${count} cuentas hospitalarias pendientes.`}{" "}
            <strong>{totalToPayText(total)}</strong>
          </p>
          <Link className="btn btn--primary pending-summary__link" to={payPath}>
            Ver y pagar cuentas
          </Link>
        </>
      )}
    </section>
  );
}
