import AccountSettingsPage from "../../features/account/AccountSettingsPage.tsx";
import { MyCaregivers } from "../../features/caregivers/MyCaregivers.tsx";
import { PendingBillsSummary } from "../../features/bills/PendingBillsSummary.tsx";
import { currentClinic } from "../../lib/clinic.ts";
import { hiddenPageRedirect } from "../../lib/hidden-pages.ts";

const MY_BILLS_PATH = "/dashboard/my-bills";

/**
 * /dashboard/account-settings, 'Mi cuenta' (SPEC §2; still the landing after login): the account page, starting with
 * a short summary of what is pending (issue 33, like MyChart's home) where the clinic's menu has hospital bills.
 */
export default function AccountSettingsRoute() {
  const billsShown = hiddenPageRedirect("2", currentClinic().key, MY_BILLS_PATH) === null;
  return <AccountSettingsPage top={billsShown ? <PendingBillsSummary payPath={MY_BILLS_PATH} /> : null} bottom={<MyCaregivers />} />;
}
