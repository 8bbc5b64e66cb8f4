/**
 * Ports of the browser-test portal and its mocks, apart from `npm start`'s 4200/4300/2525 so both can run.
 * E2E_PORT_OFFSET shifts all three, for two runs side by side on one machine.
 */
const offset = Number(process.env.E2E_PORT_OFFSET ?? 0);
export const e2ePorts = { portal: 4210 + offset, mocksHttp: 4310 + offset, smtp: 2535 + offset } as const;
export const e2eBaseUrl = `http://localhost:${e2ePorts.portal}`;
export const e2eMocksUrl = `http://127.0.0.1:${e2ePorts.mocksHttp}`;
