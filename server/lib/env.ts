import { z } from "zod";

/** "true"/"1" or "false"/"0", as environment variables carry booleans. */
export const envBoolean = z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1");
