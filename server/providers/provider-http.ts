import { AppError } from "../lib/errors.ts";

// One place where a provider's HTTP call becomes a portal error: the clients call providerFetch and never see a raw
// network error, so every feature gets PROVIDER_TIMEOUT or PROVIDER_UNAVAILABLE with a Spanish message.

export interface ProviderCredentials {
  bearerToken?: string;
  username?: string;
  password?: string;
}

export interface ProviderRequest {
  /** Name shown in the Spanish message: "laboratorio", "imagenología". */
  providerName: string;
  timeoutMs: number;
  credentials: ProviderCredentials;
  accept: string;
}

export function authorizationHeader(credentials: ProviderCredentials): string | undefined {
  if (credentials.bearerToken) return `Bearer ${credentials.bearerToken}`;
  if (credentials.username) return `Basic ${Buffer.from(`${credentials.username}:${credentials.password ?? ""}`).toString("base64")}`;
  return undefined;
}

export const providerTimeoutMessage = (name: string) => `El servicio de ${name} no respondió a tiempo, por favor intente más tarde`;
export const providerUnavailableMessage = (name: string) => `El servicio de ${name} no está disponible, por favor intente más tarde`;

function isTimeout(error: unknown): boolean {
  return (
    error instanceof Error && (error.name === "TimeoutError" || (error.name === "AbortError" && String(error.message).includes("timeout")))
  );
}

/**
 * GETs a provider URL and reads its body with `read`, all within the timeout. 404 answers null (the caller decides
 * what a missing resource means); any other failure throws PROVIDER_TIMEOUT or PROVIDER_UNAVAILABLE.
 */
export async function providerGet<T>(url: string, request: ProviderRequest, read: (response: Response) => Promise<T>): Promise<T | null> {
  return providerFetch(url, request, { method: "GET" }, read);
}

/** A change sent to a provider (PUT with a body); the same errors as providerGet. */
export interface ProviderChange {
  method: "GET" | "PUT";
  body?: string;
  headers?: Record<string, string>;
  /**
   * Statuses the caller reads itself instead of them meaning "the provider is down" (e.g. 412 or 422: the provider
   * refused this change for a reason the patient must hear).
   */
  readStatuses?: number[];
}

export async function providerFetch<T>(
  url: string,
  request: ProviderRequest,
  change: ProviderChange,
  read: (response: Response) => Promise<T>,
): Promise<T | null> {
  const headers: Record<string, string> = { accept: request.accept, ...change.headers };
  const authorization = authorizationHeader(request.credentials);
  if (authorization) headers.authorization = authorization;
  try {
    const response = await fetch(url, {
      method: change.method,
      body: change.body,
      headers,
      signal: AbortSignal.timeout(request.timeoutMs),
      redirect: "error",
    });
    if (response.status === 404) {
      await response.body?.cancel();
      return null;
    }
    if (!response.ok && !change.readStatuses?.includes(response.status)) {
      await response.body?.cancel();
      throw new AppError("PROVIDER_UNAVAILABLE", providerUnavailableMessage(request.providerName), {
        cause: new Error(`${request.providerName}: HTTP ${response.status} en ${new URL(url).pathname}`),
      });
    }
    return await read(response);
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (isTimeout(error)) throw new AppError("PROVIDER_TIMEOUT", providerTimeoutMessage(request.providerName), { cause: error });
    throw new AppError("PROVIDER_UNAVAILABLE", providerUnavailableMessage(request.providerName), { cause: error });
  }
}

/** A provider answer that does not have the expected shape is the provider's fault, not the patient's. */
export function malformedAnswer(providerName: string, detail: string): AppError {
  return new AppError("PROVIDER_UNAVAILABLE", providerUnavailableMessage(providerName), { cause: new Error(`${providerName}: ${detail}`) });
}
