import { describe, expect, it } from "vitest";
import { AppError } from "../../lib/errors.ts";
import { webpayFormOrigin } from "./payments.config.ts";
import { PaymentRefusedError } from "./payments.provider.ts";
import { toPaymentsError } from "./webpay-plus-payments.client.ts";

// What transbank-sdk throws: TransbankError(`${axiosError}\n${error_message}\n`), with no status code of its own.
function transbankError(title: string, message: string): Error {
  const error = new Error(`${title}\n${message}\n`);
  error.name = "TransbankError";
  return error;
}

describe("mapping the SDK's failures", () => {
  it("keeps a 4xx business answer as a refusal with the provider's message", () => {
    const mapped = toPaymentsError(
      transbankError("AxiosError: Request failed with status code 422", "Transaction has an invalid finished state: aborted"),
    );
    expect(mapped).toBeInstanceOf(PaymentRefusedError);
    expect(mapped).toMatchObject({ httpStatus: 422, providerMessage: "Transaction has an invalid finished state: aborted" });
  });

  it("treats rejected credentials and server errors as the provider being unavailable", () => {
    for (const status of [401, 500, 503]) {
      const mapped = toPaymentsError(transbankError(`AxiosError: Request failed with status code ${status}`, "Not Authorized"));
      expect(mapped).toBeInstanceOf(AppError);
      expect((mapped as AppError).code).toBe("PROVIDER_UNAVAILABLE");
    }
  });

  it("maps a timeout to PROVIDER_TIMEOUT and a refused connection to PROVIDER_UNAVAILABLE", () => {
    expect((toPaymentsError(transbankError("AxiosError: timeout of 500ms exceeded", "Unexpected error")) as AppError).code).toBe(
      "PROVIDER_TIMEOUT",
    );
    expect((toPaymentsError(transbankError("AxiosError: connect ECONNREFUSED 127.0.0.1:1", "Unexpected error")) as AppError).code).toBe(
      "PROVIDER_UNAVAILABLE",
    );
  });

  it("treats the SDK's own input checks as a bug of ours, not a provider failure", () => {
    expect((toPaymentsError(new Error("'buyOrder' is too long, the maximum length is 26")) as AppError).code).toBe("INTERNAL");
  });
});

describe("the payment form's origin (CSP form-action)", () => {
  it("is the API's origin unless configured apart (the Docker mock setup)", () => {
    const base = { WEBPAY_BASE_URL: "https://webpay3gint.transbank.cl" };
    expect(webpayFormOrigin({ ...base, WEBPAY_FORM_ORIGIN: undefined })).toBe("https://webpay3gint.transbank.cl");
    expect(webpayFormOrigin({ WEBPAY_BASE_URL: "http://mocks:4300/webpay", WEBPAY_FORM_ORIGIN: "http://localhost:4300" })).toBe(
      "http://localhost:4300",
    );
  });
});
