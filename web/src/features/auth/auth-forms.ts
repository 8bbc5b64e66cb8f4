import { z } from "zod";
import { loginPasswordSchema, passwordPairSchema, rutSchema } from "@contract/validation.ts";

// The public forms' schemas, from the contract's rules. The forms load this module when the user first focuses a
// field or submits (useForm's lazy schema), so zod is not part of the login page's first load (issue 14).

export const loginFormSchema = z.object({ rut: rutSchema, password: loginPasswordSchema });
export const resetRequestSchema = z.object({ rut: rutSchema });
export const newPasswordSchema = passwordPairSchema;
