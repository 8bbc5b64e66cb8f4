import { Button } from "../../components/ui/Button.tsx";
import { followDownloadLink } from "../../lib/download-file.ts";
import { useReceiptLink } from "./api/payment-records.api.ts";

/**
 * 'Comprobante' (issue 28): downloads the PDF receipt of a bill paid by card, written by the server from the stored
 * payment result. A bill marked paid without a card payment has none: the server's reason is the toast.
 */
export function ReceiptButton({ bill }: { bill: { id: number; accountCode: string } }) {
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
