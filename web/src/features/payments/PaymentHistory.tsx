import { useState } from "react";
import type { PaymentAttempt, PaymentAttemptResult } from "@contract/payments.dto.ts";
import { Card } from "../../components/ui/Card.tsx";
import { LoadFailure } from "../../components/ui/LoadFailure.tsx";
import { Paginator } from "../../components/ui/Paginator.tsx";
import { formatChileDateTime } from "../../lib/dates.ts";
import { formatClp } from "../../lib/money.ts";
import { useIsMobile } from "../../lib/use-media-query.ts";
import { systemError, usePaymentHistory } from "./api/payment-records.api.ts";
import "./payments.css";

const resultLabels: Record<PaymentAttemptResult, string> = {
  aceptado: "Aceptado",
  rechazado: "Rechazado",
  anulado: "Anulado",
  pendiente: "Pendiente",
};

function AttemptResult({ attempt }: { attempt: PaymentAttempt }) {
  return (
    <span className={`payment-result payment-result--${attempt.result}`}>
      <span className="payment-result__dot" aria-hidden="true" />
      {resultLabels[attempt.result]}
    </span>
  );
}

/**
 * 'Historial de pagos' (issue 28) on 'Cuentas hospitalarias': every card payment attempt of the patient with its
 * result, so a patient who closed the payment tab knows what happened. Newest first, 10 a page; cards under 1024 px.
 */
export function PaymentHistory() {
  const [page, setPage] = useState(1);
  const history = usePaymentHistory(page);
  const isMobile = useIsMobile();
  const items = history.data?.items ?? [];

  return (
    <Card title="Historial de pagos" className="payment-history" aria-label="Historial de pagos">
      {history.isError ? (
        <LoadFailure
          service="cuentas hospitalarias"
          toast={systemError}
          onRetry={() => void history.refetch()}
          retrying={history.isFetching}
        />
      ) : history.isSuccess && history.data.total === 0 ? (
        <p className="payment-history__empty">Aún no ha hecho pagos con tarjeta en el portal.</p>
      ) : isMobile ? (
        <ul className="payment-history__cards">
          {items.map((attempt) => (
            <li key={attempt.buyOrder} className="payment-attempt" aria-label={`Pago de la cuenta ${attempt.accountCode}`}>
              <dl>
                <dt>Fecha</dt>
                <dd>{formatChileDateTime(attempt.at)}</dd>
                <dt>N° de cuenta</dt>
                <dd>{attempt.accountCode}</dd>
                <dt>Monto</dt>
                <dd>{formatClp(attempt.amount)}</dd>
                <dt>Resultado</dt>
                <dd>
                  <AttemptResult attempt={attempt} />
                  <div className="payment-attempt__detail">{attempt.detail}</div>
                </dd>
              </dl>
            </li>
          ))}
        </ul>
      ) : (
        <div className="bills-table__scroller">
          <table className="data-table payment-history__table" aria-label="Historial de pagos">
            <thead>
              <tr>
                <th scope="col">Fecha</th>
                <th scope="col">N° de cuenta</th>
                <th scope="col">Monto</th>
                <th scope="col">Resultado</th>
                <th scope="col">Orden de compra</th>
              </tr>
            </thead>
            <tbody>
              {items.map((attempt) => (
                <tr key={attempt.buyOrder}>
                  <td>{formatChileDateTime(attempt.at)}</td>
                  <td>{attempt.accountCode}</td>
                  <td className="bills-table__num">{formatClp(attempt.amount)}</td>
                  <td>
                    <AttemptResult attempt={attempt} />
                    <div className="payment-attempt__detail">{attempt.detail}</div>
                  </td>
                  <td className="payment-history__order">{attempt.buyOrder}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {history.data && history.data.total > 0 ? (
        <Paginator page={page} total={history.data.total} onPageChange={(next) => next !== page && setPage(next)} />
      ) : null}
    </Card>
  );
}
