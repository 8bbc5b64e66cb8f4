import { z } from "zod";
import type { AppConfig } from "../../config.ts";
import { clinicByKey, framesForClinic, schedulingTabTitle, type ClinicKey } from "../../contract/clinics.ts";
import type { ZClinicSettings } from "../../contract/api.dto.ts";
import { AppError } from "../../lib/errors.ts";
import { clinicPortalUrl, labSiteUrl, schedulingFrameUrl } from "../../lib/clinic-urls.ts";

export const clinicNotFoundMessage = "Clínica no encontrada";

export const ZClinicSettingsInput = z.object({
  clinic: z.string({ error: clinicNotFoundMessage }).trim().max(60, { error: clinicNotFoundMessage }),
});

/** Everything the web app needs to brand a clinic's portal and link or frame its external sites (schema in the contract). */
export type ClinicSettings = z.infer<typeof ZClinicSettings> & { key: ClinicKey };

type SettingsConfig = Pick<
  AppConfig,
  "SCHEDULING_URL_TEMPLATE" | "LAB_SITE_URL_TEMPLATE" | "IMAGING_LOGIN_URL" | "CLINIC_PORTAL_URL_TEMPLATE"
>;

/**
 * Public settings of the clinic with that key (no login needed: the login page shows the logo and the external links).
 * Throws NOT_FOUND for a key outside the catalogue.
 */
export function clinicSettings(config: SettingsConfig, clinicKey: string): ClinicSettings {
  const clinic = clinicByKey(clinicKey);
  if (!clinic) throw new AppError("NOT_FOUND", clinicNotFoundMessage);
  return {
    key: clinic.key,
    code: clinic.code,
    title: clinic.title,
    logo: clinic.logo,
    helpFormUrl: clinic.helpFormUrl,
    surveyFormUrl: clinic.surveyFormUrl,
    labSiteUrl: labSiteUrl(config, clinic),
    imagingLoginUrl: config.IMAGING_LOGIN_URL,
    portalUrl: clinicPortalUrl(config, clinic),
    frames: framesForClinic(clinic.key).map((frame) => ({
      key: frame.key,
      title: frame.title,
      tabTitle: schedulingTabTitle(clinic.key, frame.title),
      url: schedulingFrameUrl(config, clinic, frame),
    })),
  };
}
