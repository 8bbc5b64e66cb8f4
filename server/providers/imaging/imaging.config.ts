import { z } from "zod";
import { providerTimeoutMs, providerUrl } from "../provider-config.ts";

/**
 * Imaging provider (DICOMweb QIDO-RS/WADO-RS, see notes/imaging-and-lab.md); the mock of mocks/dicom-web in development.
 * IMAGING_VIEWER_URL_TEMPLATE opens one study ({studyUid}); when it is set, its origin joins the CSP frame-src (the
 * viewer is framed). Unset, nothing but the scheduling pages may be framed.
 */
export const imagingConfigSchema = z.object({
  DICOMWEB_BASE_URL: providerUrl("http://localhost:4300/dicom-web"),
  IMAGING_VIEWER_URL_TEMPLATE: z
    .string()
    .refine((value) => /^https?:\/\/[^/{}]+/i.test(value), { error: "debe ser una dirección http(s)" })
    .optional(),
  IMAGING_TIMEOUT_MS: providerTimeoutMs(10_000),
});

export type ImagingConfig = z.infer<typeof imagingConfigSchema>;
