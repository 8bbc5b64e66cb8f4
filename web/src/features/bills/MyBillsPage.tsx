import { MyBillsView } from "./MyBillsView.tsx";

/**
 * /dashboard/my-bills. Card payment plugs in from outside this feature: a page composing both features renders
 * `<MyBillsView renderPayAction={(bill) => <PayButton bill={bill} />}><PaymentResultModal /></MyBillsView>`.
 */
export default function MyBillsPage() {
  return <MyBillsView />;
}
