// The portal's environment under npm start: the provider addresses follow the mocks' port (MOCKS_HTTP_PORT), so the
// scheduling frames, the imaging link and viewer, the lab, payment and ClaveÚnica providers and the CSP frame-src (derived from them) point where the mocks really are.
// Addresses the operator set are kept.

/**
 * @param {Record<string, string | undefined>} env
 * @param {string} portalPort
 * @param {string} mocksPort
 * @returns {Record<string, string | undefined>}
 */
export function portalEnv(env, portalPort, mocksPort) {
  return {
    LOG_LEVEL: "warn",
    SCHEDULING_URL_TEMPLATE: `http://localhost:${mocksPort}/agenda?externalCenterId={centerId}`,
    IMAGING_LOGIN_URL: `http://localhost:${mocksPort}/imagenologia/login`,
    LAB_FHIR_BASE_URL: `http://localhost:${mocksPort}/fhir`,
    SCHEDULING_FHIR_BASE_URL: `http://localhost:${mocksPort}/agenda/fhir`,
    IMAGING_DICOMWEB_BASE_URL: `http://localhost:${mocksPort}/dicom-web`,
    IMAGING_VIEWER_URL_TEMPLATE: `http://localhost:${mocksPort}/dicom-web/viewer?StudyInstanceUIDs={studyUid}`,
    WEBPAY_BASE_URL: `http://localhost:${mocksPort}/webpay`,
    // 'Ingresar con ClaveÚnica' against the mock's provider (issue 43), as .env.example says, also on a fresh clone
    // without .env; the client is the mock's (mocks/claveunica/claveunica-mock.ts, mockClient). An operator's
    // CLAVEUNICA_ISSUER (the State's, or empty to not offer the button) keeps their own client. Production refuses the
    // mock's issuer at start (server/ops/production-guard.ts).
    ...(env.CLAVEUNICA_ISSUER === undefined
      ? {
          CLAVEUNICA_ISSUER: `http://localhost:${mocksPort}/claveunica`,
          CLAVEUNICA_CLIENT_ID: "portal-pacientes-demo",
          CLAVEUNICA_CLIENT_SECRET: "claveunica-simulador-no-es-secreto",
        }
      : {}),
    ...env,
    PORT: portalPort,
  };
}
