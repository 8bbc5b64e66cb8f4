import { Button } from "../../components/ui/Button.tsx";
import { followDownloadLink } from "../../lib/download-file.ts";
import { useReceiptAccounts, useReceiptLink } from "./api/payment-records.api.ts";

type ReceiptBill = { id: number; accountCode: string };

/**
 * 'Comprobante' (issue 28): downloads the PDF receipt of a bill paid by card, written by the server from the stored
 * payment result.
 */
export function ReceiptButton({ bill }: { bill: ReceiptBill }) {
  const link = useReceiptLink();

  async function download() {
    try {
      const { url, fileName } = await link.mutateAsync({ accountId: bill.id });
      followDownloadLink(url, fileName);
    } catch {
      // The toast is the link's meta.errorToast (api/payment-records.api.ts).
    }
  }

  return (
    <Button
      variant="secondary"
      className="receipt-button"
      onClick={() => void download()}
      disabled={link.isPending}
      aria-label={`Comprobante de la cuenta ${bill.accountCode}`}
    >
      Comprobante
    </Button>
  );
}

/** 'Comprobante' on the patient's list, only on bills that have a receipt (one marked paid by staff has none). */
export function PatientReceiptButton({ bill }: { bill: ReceiptBill }) {
  const receipts = useReceiptAccounts();
  if (!receipts.data?.accountIds.includes(bill.id)) return null;
  return <ReceiptButton bill={bill} />;
}
