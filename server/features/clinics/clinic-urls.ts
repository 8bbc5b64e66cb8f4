import type { AppConfig } from "../../config.ts";
import type { Clinic } from "../../contract/clinics.ts";

/** The clinic's own public portal address, from configuration (never from the request's Host header). */
export function clinicPortalUrl(config: Pick<AppConfig, "CLINIC_PORTAL_URL_TEMPLATE">, clinic: Clinic): string {
  return config.CLINIC_PORTAL_URL_TEMPLATE.replaceAll("{alias}", clinic.alias).replaceAll("{key}", clinic.key).replace(/\/+$/, "");
}
