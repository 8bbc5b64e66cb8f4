import { z } from "zod";
import { optionalSecret, providerTimeoutMs, providerUrl } from "../provider-config.ts";

/** Imaging provider (the PACS's DICOMweb service and its web viewer). */
export const imagingConfigSchema = z.object({
  IMAGING_DICOMWEB_BASE_URL: providerUrl("http://localhost:4300/dicom-web"),
  /** Viewer address of one study; {studyUid} is its StudyInstanceUID (OHIF, Orthanc Stone…). Its origin is allowed in frame-src. */
  IMAGING_VIEWER_URL_TEMPLATE: z
    .string()
    .default("http://localhost:4300/dicom-web/viewer?StudyInstanceUIDs={studyUid}")
    .refine((template) => template.includes("{studyUid}"), "IMAGING_VIEWER_URL_TEMPLATE debe contener {studyUid}")
    .refine((template) => /^https?:\/\/[^/{}]+/.test(template), "IMAGING_VIEWER_URL_TEMPLATE debe ser una dirección http(s)"),
  IMAGING_DICOMWEB_BEARER_TOKEN: optionalSecret,
  IMAGING_DICOMWEB_USERNAME: optionalSecret,
  IMAGING_DICOMWEB_PASSWORD: optionalSecret,
  /** Per call; a results page must answer within 3 s even when the provider hangs (see circuit-breaker.ts). */
  IMAGING_TIMEOUT_MS: providerTimeoutMs(2_000),
});

export type ImagingConfig = z.infer<typeof imagingConfigSchema>;

/** The origin of the configured viewer: the only imaging origin the portal may frame. */
export function viewerOrigin(config: Pick<ImagingConfig, "IMAGING_VIEWER_URL_TEMPLATE">): string {
  return new URL(config.IMAGING_VIEWER_URL_TEMPLATE.replace("{studyUid}", "0")).origin;
}
