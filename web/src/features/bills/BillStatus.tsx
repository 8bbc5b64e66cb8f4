import { billStatusLabel } from "@contract/bills.lists.ts";

/** SPEC §2: a red dot 'Pendiente' when unpaid, a green dot 'Pagada' when paid, with the text. */
export function BillStatus({ isPaid }: { isPaid: boolean }) {
  return (
    <span className={`bill-status bill-status--${isPaid ? "paid" : "pending"}`}>
      <span className="bill-status__dot" aria-hidden="true" />
      {billStatusLabel(isPaid)}
    </span>
  );
}
