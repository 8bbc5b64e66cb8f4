// The portal's environment under npm start: the provider addresses follow the mocks' port (MOCKS_HTTP_PORT), so the
// scheduling frames, the imaging link and viewer, the lab and payment providers and the CSP frame-src (derived from them) point where the mocks really are.
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
    ...env,
    PORT: portalPort,
  };
}
