import AccountSettingsPage from "../../features/account/AccountSettingsPage.tsx";
import { MyDataRights } from "../../features/data-rights/MyDataRights.tsx";
import { MyCaregivers } from "../../features/caregivers/MyCaregivers.tsx";
import { PendingBillsSummary } from "../../features/bills/PendingBillsSummary.tsx";
import { LatestResultsSummary, type ResultsPage } from "../../features/latest-results/LatestResultsSummary.tsx";
import { MY_APPOINTMENTS_PATH, NextAppointmentSummary } from "../../features/appointments/NextAppointmentSummary.tsx";
import { currentClinic } from "../../lib/clinic.ts";
import { hiddenPageRedirect } from "../../lib/hidden-pages.ts";

const MY_BILLS_PATH = "/dashboard/my-bills";
const RESULTS_PAGES: ResultsPage[] = [
  { service: "laboratory", path: "/dashboard/laboratory" },
  { service: "imaging", path: "/dashboard/imaging" },
];

/**
 * /dashboard/account-settings, 'Mi cuenta' (SPEC §2; still the landing after login): the account page, starting with
 * a short summary of what is pending (issue 33, like MyChart's home) where the clinic's menu has hospital bills, the
 * next appointment ('Mis citas', issue 44) and the newest results of the results pages the menu shows; ending with the
 * patient's rights over their data (issue 28: download, accesses, requests).
 */
export default function AccountSettingsRoute() {
  const shown = (path: string) => hiddenPageRedirect("2", currentClinic().key, path) === null;
  return (
    <AccountSettingsPage
      top={
        <>
          {shown(MY_BILLS_PATH) ? <PendingBillsSummary payPath={MY_BILLS_PATH} /> : null}
          {shown(MY_APPOINTMENTS_PATH) ? <NextAppointmentSummary /> : null}
          <LatestResultsSummary pages={RESULTS_PAGES.filter((page) => shown(page.path))} />
        </>
      }
      bottom={
        <>
          <MyCaregivers />
          <MyDataRights />
        </>
      }
    />
  );
}
