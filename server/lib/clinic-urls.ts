import type { AppConfig } from "../config.ts";
import { clinics, framesForClinic, type Clinic, type SchedulingFrame } from "../contract/clinics.ts";

// Addresses of the clinic's own portal and of the external sites it links to or frames. They come from configuration
// templates (never from the request's Host header): {alias} and {key} name the clinic, {centerId} the scheduling
// center (CODE@number) and {labPort} the clinic's laboratory port. One template serves every clinic; production can
// still give each clinic its own host by using {alias} in the host part (e.g. https://agenda.{alias}.cl/?c={centerId}).

type ClinicPlaceholders = Partial<Record<"alias" | "key" | "centerId" | "labPort", string>>;

function fillTemplate(template: string, values: ClinicPlaceholders): string {
  return template.replace(
    /\{(alias|key|centerId|labPort)\}/g,
    (placeholder, name: keyof ClinicPlaceholders) => values[name] ?? placeholder,
  );
}

/** Encodes a value for any part of a URL, leaving '@' as is so the address carries the center id as CODE@number. */
function urlValue(value: string): string {
  return encodeURIComponent(value).replaceAll("%40", "@");
}

/** The clinic's own public portal address, from configuration (never from the request's Host header). */
export function clinicPortalUrl(config: Pick<AppConfig, "CLINIC_PORTAL_URL_TEMPLATE">, clinic: Clinic): string {
  return fillTemplate(config.CLINIC_PORTAL_URL_TEMPLATE, { alias: clinic.alias, key: clinic.key }).replace(/\/+$/, "");
}

/** Address of one scheduling frame of the clinic: SCHEDULING_URL_TEMPLATE with the frame's external center id. */
export function schedulingFrameUrl(config: Pick<AppConfig, "SCHEDULING_URL_TEMPLATE">, clinic: Clinic, frame: SchedulingFrame): string {
  return fillTemplate(config.SCHEDULING_URL_TEMPLATE, { alias: clinic.alias, key: clinic.key, centerId: urlValue(frame.externalCenterId) });
}

/** The clinic's laboratory results site (results by order number, no login): its own port (SPEC §1). */
export function labSiteUrl(config: Pick<AppConfig, "LAB_SITE_URL_TEMPLATE">, clinic: Clinic): string {
  return fillTemplate(config.LAB_SITE_URL_TEMPLATE, { alias: clinic.alias, key: clinic.key, labPort: String(clinic.labPort) });
}

/**
 * Origins of every clinic's scheduling frames, for the CSP frame-src. Refuses to start with a template that is not an
 * http(s) address, since the frames could not load (or would load something other than a web page).
 */
export function schedulingOrigins(config: Pick<AppConfig, "SCHEDULING_URL_TEMPLATE">): string[] {
  const origins = clinics.flatMap((clinic) =>
    framesForClinic(clinic.key).map((frame) => {
      const address = schedulingFrameUrl(config, clinic, frame);
      let url: URL;
      try {
        url = new URL(address);
      } catch {
        throw new Error(`Configuración inválida: SCHEDULING_URL_TEMPLATE no da una dirección válida («${address}»)`);
      }
      if (url.protocol !== "https:" && url.protocol !== "http:") {
        throw new Error(`Configuración inválida: SCHEDULING_URL_TEMPLATE debe ser una dirección http(s) («${address}»)`);
      }
      return url.origin;
    }),
  );
  return [...new Set(origins)];
}
