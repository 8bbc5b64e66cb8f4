import { auditRouter } from "../features/audit/audit.router.ts";
import { accountRouter } from "../features/account/account.router.ts";
import { authRouter } from "../features/auth/auth.router.ts";
import { dataRightsRouter } from "../features/data-rights/data-rights.router.ts";
import { caregiversRouter } from "../features/caregivers/caregivers.router.ts";
import { billsRouter } from "../features/bills/bills.router.ts";
import { clinicsRouter } from "../features/clinics/clinics.router.ts";
import { imagingRouter } from "../features/results/imaging.router.ts";
import { laboratoryRouter } from "../features/results/laboratory.router.ts";
import { appointmentsRouter } from "../features/appointments/appointments.router.ts";
import { noticesRouter } from "../features/notices/notices.router.ts";
import { reportsRouter } from "../features/results/reports.router.ts";
import { paymentsRouter } from "../features/payments/payments.router.ts";
import { termsRouter } from "../features/terms/terms.router.ts";
import { usersRouter } from "../features/users/users.router.ts";
import { router } from "./trpc.ts";

export const appRouter = router({
  auth: authRouter,
  account: accountRouter,
  terms: termsRouter,
  clinics: clinicsRouter,
  users: usersRouter,
  laboratory: laboratoryRouter,
  appointments: appointmentsRouter,
  notices: noticesRouter,
  imaging: imagingRouter,
  reports: reportsRouter,
  bills: billsRouter,
  payments: paymentsRouter,
  audit: auditRouter,
  dataRights: dataRightsRouter,
  caregivers: caregiversRouter,
});

export type AppRouter = typeof appRouter;
