import { z } from "zod";

// A range of days as people pick it on a screen (Desde / Hasta): the results' filter and the audit's, with the same
// messages in the browser and on the server.

export const dayRangeMessages = {
  bothRequired: "Ingrese ambas fechas",
  fromAfterTo: "La fecha Desde no puede ser posterior a la fecha Hasta",
} as const;

/** Desde and Hasta (YYYY-MM-DD) that may be empty: in order when both are set. */
export const dayRangeInOrder = (range: { from?: string; to?: string }) => !range.from || !range.to || range.from <= range.to;

/** The results' filter (SPEC §2): both days required, Desde not after Hasta (the message sits on Hasta). */
export const dayRangeFormSchema = z
  .object({
    from: z.string().min(1, { error: dayRangeMessages.bothRequired }),
    to: z.string().min(1, { error: dayRangeMessages.bothRequired }),
  })
  .refine(dayRangeInOrder, { error: dayRangeMessages.fromAfterTo, path: ["to"] });
