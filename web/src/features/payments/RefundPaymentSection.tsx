import { useState } from "react";
import { refundFormSchema } from "@contract/payments.schemas.ts";
import type { RefundView } from "@contract/payments.dto.ts";
import { Button } from "../../components/ui/Button.tsx";
import { Card } from "../../components/ui/Card.tsx";
import { TextField } from "../../components/ui/TextField.tsx";
import { formatChileDateTime } from "../../lib/dates.ts";
import { formatClp } from "../../lib/money.ts";
import { showModal } from "../../lib/overlay-store.ts";
import { errorMessage } from "../../lib/trpc.ts";
import { useForm } from "../../lib/use-form.ts";
import { useBillPayment, useRefundPayment } from "./api/payment-records.api.ts";
import { ReceiptButton } from "./ReceiptButton.tsx";
import "./payments.css";

const refundTypeLabels = { REVERSED: "reversa", NULLIFIED: "anulación" } as const;

function refundSummary(refund: RefundView): string {
  const kind = refund.type ? ` (${refundTypeLabels[refund.type]} en Webpay)` : "";
  return `Pago anulado el ${formatChileDateTime(refund.at)} por ${refund.requestedBy}${kind}. Motivo: ${refund.reason}`;
}

/**
 * The bill's card payment on the staff bill page (issue 28): its details, 'Comprobante', and 'Anular pago' with a
 * required reason. The bill returns to 'Pendiente' only when Webpay confirms; a refusal or an outage is said here, in
 * place, and the bill stays paid. `onRefunded` reloads the bill's form (its status changed).
 */
export function RefundPaymentSection({ bill, onRefunded }: { bill: { id: number; accountCode: string }; onRefunded(): void }) {
  const payment = useBillPayment(bill.id);
  const refund = useRefundPayment();
  const form = useForm(refundFormSchema, { reason: "" });
  const [failure, setFailure] = useState<string | null>(null);
  const data = payment.data;
  if (!data?.payment) return null;
  const { payment: paid } = data;

  const onSubmit = form.submit(async ({ reason }) => {
    const answer = await showModal({
      title: "Anular pago",
      body: `¿Anular el pago de ${formatClp(paid.amount)} de la cuenta ${bill.accountCode}? Webpay devolverá el monto a la tarjeta del paciente y la cuenta quedará Pendiente.`,
      icon: "delete",
      buttons: ["Volver", "Continuar"],
    });
    if (answer !== "Continuar") return;
    setFailure(null);
    try {
      await refund.mutateAsync({ accountId: bill.id, reason });
      onRefunded();
      await showModal({
        title: "Pago anulado",
        body: "Webpay confirmó la anulación. La cuenta quedó Pendiente y se avisó al paciente por correo.",
      });
    } catch (error) {
      setFailure(errorMessage(error, "No se pudo anular el pago. La cuenta sigue pagada; intente de nuevo en unos minutos."));
    }
  });

  return (
    <Card title="Pago con tarjeta" className="bill-payment" aria-label="Pago con tarjeta">
      <dl>
        <dt>Orden de compra</dt>
        <dd>{paid.buyOrder}</dd>
        <dt>Monto</dt>
        <dd>{formatClp(paid.amount)}</dd>
        {paid.transactionDate ? (
          <>
            <dt>Fecha</dt>
            <dd>{formatChileDateTime(paid.transactionDate)}</dd>
          </>
        ) : null}
        {paid.authorizationCode ? (
          <>
            <dt>Código de autorización</dt>
            <dd>{paid.authorizationCode}</dd>
          </>
        ) : null}
        {paid.cardNumber ? (
          <>
            <dt>Tarjeta</dt>
            <dd>
              {paid.paymentType}, terminada en {paid.cardNumber}
            </dd>
          </>
        ) : null}
      </dl>
      {data.refund?.status === "CONFIRMED" ? (
        <p className="bill-payment__refund" role="status">
          {refundSummary(data.refund)}
        </p>
      ) : null}
      {failure ? (
        <p className="bill-payment__error" role="alert">
          {failure}
        </p>
      ) : null}
      {data.refundable ? (
        <form className="form" onSubmit={onSubmit} noValidate>
          <TextField
            label="Motivo de la anulación"
            {...form.field("reason")}
            maxLength={500}
            hint="El paciente recibirá este motivo en el correo que le avisa de la anulación."
          />
          <div className="bill-payment__actions">
            <ReceiptButton bill={bill} />
            <Button type="submit" variant="danger" disabled={refund.isPending}>
              {refund.isPending ? "Anulando…" : "Anular pago"}
            </Button>
          </div>
        </form>
      ) : null}
    </Card>
  );
}
