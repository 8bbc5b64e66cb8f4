/** Ports of the browser-test portal and its mocks (apart from `npm start`'s 4200/4300/2525, so both can run). */
export const e2ePorts = { portal: 4210, mocksHttp: 4310, smtp: 2535 } as const;
export const e2eBaseUrl = `http://localhost:${e2ePorts.portal}`;
export const e2eMocksUrl = `http://127.0.0.1:${e2ePorts.mocksHttp}`;
