import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import { claveUnicaBases, claveUnicaMock, type ClaveUnicaMockOptions } from "./claveunica/claveunica-mock.ts";
import { dicomWebMock } from "./dicom-web/dicom-web-mock.ts";
import { fhirMock } from "./fhir/fhir-mock.ts";
import { htmlContentType } from "./html.ts";
import { imagingLoginMock } from "./imaging-login/imaging-login-mock.ts";
import { renderIndexPage } from "./index-page.ts";
import { mailRoutes, type MailStore } from "./mail/mail-catcher.ts";
import { createFaultSwitch, failureBases, faultSwitchRoutes, switchBase } from "./results/behaviour.ts";
import { BookingLedger } from "./scheduling/bookings.ts";
import { schedulingFhir } from "./scheduling/scheduling-fhir.ts";
import { schedulingMock } from "./scheduling/scheduling-mock.ts";
import { webpayMock, type WebpayMockOptions } from "./webpay/webpay-mock.ts";

export interface MocksAppOptions {
  /** Store filled by the SMTP side of the mail catcher. */
  mailStore: MailStore;
  /** Extra origins allowed to frame the scheduling pages. */
  frameAncestors?: string[];
  /** Clock for the scheduling mock; injectable for tests. */
  now?: () => Date;
  logger?: FastifyServerOptions["logger"];
  /** Webpay Plus mock settings (token lifetime, accepted credentials). */
  webpay?: WebpayMockOptions;
  /** ClaveÚnica mock settings (the address the browser and the portal reach it at). */
  claveUnica?: Pick<ClaveUnicaMockOptions, "publicUrl" | "extraIdentities">;
}

/** One HTTP server for every provider mock; each provider is its own plugin. */
export function buildMocksApp(options: MocksAppOptions): FastifyInstance {
  const app = Fastify({
    logger: options.logger ?? false,
    // The slow provider mocks hold an answer for a minute: closing the mocks cuts those connections (as a provider that
    // goes away does) instead of waiting for them, so a test's clean-up never outlasts its hook timeout.
    forceCloseConnections: true,
  });

  app.register(mailRoutes, { store: options.mailStore });
  const now = options.now ?? (() => new Date());
  app.register(schedulingMock, { frameAncestors: options.frameAncestors, now });
  app.register(imagingLoginMock);
  // Laboratory (FHIR R4) and imaging (DICOMweb), each also mounted as a provider that is down or too slow, for tests.
  app.register(fhirMock, { prefix: "/fhir", now: options.now });
  app.register(dicomWebMock, { prefix: "/dicom-web", now: options.now, frameAncestors: options.frameAncestors });
  for (const behaviour of ["down", "slow"] as const) {
    app.register(fhirMock, { prefix: `${failureBases[behaviour]}/fhir`, behaviour });
    app.register(dicomWebMock, { prefix: `${failureBases[behaviour]}/dicom-web`, behaviour });
    app.register(schedulingFhir, { prefix: `${failureBases[behaviour]}/agenda/fhir`, behaviour, ledger: new BookingLedger(), now });
  }
  // A laboratory and an imaging server whose behaviour a fault run switches while the portal runs (slow, down, back).
  const faultSwitch = createFaultSwitch();
  faultSwitchRoutes(app, faultSwitch);
  app.register(fhirMock, { prefix: `${switchBase}/fhir`, behaviour: faultSwitch, now: options.now });
  app.register(dicomWebMock, {
    prefix: `${switchBase}/dicom-web`,
    behaviour: faultSwitch,
    now: options.now,
    frameAncestors: options.frameAncestors,
  });
  app.register(webpayMock, { prefix: "/webpay", ...options.webpay });
  // ClaveÚnica (OpenID Connect), also as a provider that is down and one whose ID tokens carry a signature it does not publish.
  for (const behaviour of ["normal", "down", "foreign-key"] as const) {
    app.register(claveUnicaMock, { prefix: claveUnicaBases[behaviour], behaviour, ...options.claveUnica });
  }

  app.get("/", async (_request, reply) => reply.type(htmlContentType).send(renderIndexPage()));

  return app;
}
