import { buildApp } from "../../../server/app.ts";
import { loadConfig } from "../../../server/config.ts";
import { seedDemoData } from "../../../server/db/seed.ts";
import { startMocks } from "../../../mocks/start.ts";
import { mockClient as claveUnicaMockClient } from "../../../mocks/claveunica/claveunica-mock.ts";
import { freshDatabase } from "../../helpers/fresh-database.ts";
import { seedPaymentFixtures } from "./payments-fixtures.ts";
import { seedPaymentRecordFixtures } from "./payment-records-fixtures.ts";
import { seedCaregiverFixtures } from "./caregiver-fixtures.ts";
import { claveUnicaFixtureIdentities, seedClaveUnicaFixtures } from "./claveunica-fixtures.ts";
import { seedAppointmentsFixtures } from "./appointments-fixtures.ts";
import { seedExportDatesFixtures } from "./export-dates-fixtures.ts";
import { seedRightsRequestsFixtures } from "./rights-requests-fixtures.ts";
import { seedWorkerStaff } from "./staff-accounts.ts";
import { seedBusyAccessLog, seedEveryAuditAction } from "./audit-fixtures.ts";
import { e2ePorts } from "./ports.ts";

// The portal as the browser tests see it: a fresh seeded database (in-memory PGlite, or a throw-away PostgreSQL
// database when TEST_DATABASE_URL is set), the mocks, and the built web app from dist/web. E2E_PROVIDERS=caida points the
// laboratory and imaging clients at the mocks' failing providers (/fallas/caida/…), for the "service down" screens.
// E2E_EXTRA_FRAME_ANCESTORS (comma-separated origins) lets the mocks' pages be framed by the portal behind a proxy too
// (npm run test:lighthouse serves it through Caddy on https://clinicasur.localhost:<port>).
const providers = process.env.E2E_PROVIDERS === "caida" ? "/fallas/caida" : "";
const mocks = await startMocks({
  httpPort: e2ePorts.mocksHttp,
  smtpPort: e2ePorts.smtp,
  frameAncestors: [
    `http://localhost:${e2ePorts.portal}`,
    `http://*.localhost:${e2ePorts.portal}`,
    ...(process.env.E2E_EXTRA_FRAME_ANCESTORS?.split(",").filter(Boolean) ?? []),
  ],
  claveUnica: { extraIdentities: claveUnicaFixtureIdentities },
});
const { db, drop } = await freshDatabase();
await seedDemoData(db.prisma, { onlyWhenEmpty: false });
await seedPaymentFixtures(db.prisma);
await seedPaymentRecordFixtures(db.prisma);
await seedCaregiverFixtures(db.prisma);
await seedClaveUnicaFixtures(db.prisma);
await seedAppointmentsFixtures(db.prisma);
await seedExportDatesFixtures(db.prisma);
await seedRightsRequestsFixtures(db.prisma);
await seedEveryAuditAction(db.prisma);
await seedBusyAccessLog(db.prisma);
// Last, so the workers' own staff are the newest accounts (tests/e2e/support/staff-accounts.ts).
await seedWorkerStaff(db.prisma);
const config = loadConfig(
  { NODE_ENV: "test" },
  {
    HOST: "localhost",
    PORT: String(e2ePorts.portal),
    SMTP_PORT: String(e2ePorts.smtp),
    CLINIC_PORTAL_URL_TEMPLATE: `http://{alias}.localhost:${e2ePorts.portal}`,
    SCHEDULING_URL_TEMPLATE: `http://localhost:${e2ePorts.mocksHttp}/agenda?externalCenterId={centerId}`,
    IMAGING_LOGIN_URL: `http://localhost:${e2ePorts.mocksHttp}/imagenologia/login`,
    LAB_FHIR_BASE_URL: `http://127.0.0.1:${e2ePorts.mocksHttp}${providers}/fhir`,
    SCHEDULING_FHIR_BASE_URL: `http://127.0.0.1:${e2ePorts.mocksHttp}${providers}/agenda/fhir`,
    IMAGING_DICOMWEB_BASE_URL: `http://127.0.0.1:${e2ePorts.mocksHttp}${providers}/dicom-web`,
    IMAGING_VIEWER_URL_TEMPLATE: `http://localhost:${e2ePorts.mocksHttp}/dicom-web/viewer?StudyInstanceUIDs={studyUid}`,
    WEBPAY_BASE_URL: `http://localhost:${e2ePorts.mocksHttp}/webpay`,
    // The browser goes to the provider at this address too, so it is the mock's public one (localhost, not 127.0.0.1).
    CLAVEUNICA_ISSUER: `http://localhost:${e2ePorts.mocksHttp}${providers}/claveunica`,
    CLAVEUNICA_CLIENT_ID: claveUnicaMockClient.clientId,
    CLAVEUNICA_CLIENT_SECRET: claveUnicaMockClient.clientSecret,
    LOGIN_MAX_FAILURES_PER_IP: "1000",
    LOG_LEVEL: "warn",
    WEB_DIST_DIR: process.env.WEB_DIST_DIR ?? "./dist/web",
  },
);
const app = await buildApp({ config, db });
await app.listen({ host: config.HOST, port: config.PORT });
console.log(`e2e portal on http://localhost:${config.PORT}`);

const shutdown = async () => {
  await app.close();
  await drop();
  await mocks.close();
  process.exit(0);
};
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
