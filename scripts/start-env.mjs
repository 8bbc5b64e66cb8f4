// The portal's environment under npm start: the provider addresses follow the mocks' port (MOCKS_HTTP_PORT), so the
// scheduling frames, the imaging link and the CSP frame-src (derived from them) point where the mocks really are.
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
    ...env,
    PORT: portalPort,
  };
}
