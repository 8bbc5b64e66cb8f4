import { z } from "zod";
import { ZUserDto } from "./users.dto.ts";

// Response schemas shared by several calls of the /api/rcr/v1 contract (shared with the web; described in /api/docs).

/** Every error answer of the API (one error handler writes them): the status, a code and a Spanish message. */
export const ZErrorBody = z.object({
  statusCode: z.number().int(),
  error: z.string().describe("Código del error, p. ej. BAD_REQUEST, UNAUTHORIZED, NOT_FOUND"),
  message: z.string().describe("Mensaje en español para mostrar al usuario"),
});

/** Most calls answer `{ payload }` (SPEC §7); some add a `message` to show. */
export const payloadOf = <S extends z.ZodType>(payload: S) => z.object({ payload });
export const payloadWithMessage = <S extends z.ZodType>(payload: S) => z.object({ payload, message: z.string() });

/** Login and password change: the user and a fresh access token (bearer of every later call). */
export const ZSession = z.object({ user: ZUserDto, accessToken: z.string().describe("JWT de acceso (Authorization: Bearer)") });

/** A clinic's public branding, links and scheduling frames (GET /clinics/{key}/settings). */
export const ZClinicSettings = z.object({
  key: z.string(),
  code: z.number().int(),
  title: z.string(),
  logo: z.string(),
  helpFormUrl: z.string(),
  surveyFormUrl: z.string(),
  labSiteUrl: z.string(),
  imagingLoginUrl: z.string(),
  portalUrl: z.string(),
  frames: z.array(
    z.object({
      key: z.string(),
      title: z.string(),
      tabTitle: z.string().describe("Título de la pestaña cuando la clínica tiene varios marcos"),
      url: z.string().describe("Página externa de agenda, con el centro como CODE@número"),
    }),
  ),
});
