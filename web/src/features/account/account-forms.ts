import { z } from "zod";
import { messages, passwordPairSchema, profileSchema } from "@contract/validation.ts";

// The schemas of 'Mi cuenta''s own forms, from the contract's rules. The forms load this module when a field first gets
// the focus or the form is checked (useForm's lazy schema): 'Mis datos' is the landing page after login, and building
// zod's schemas at load was 0.2 s of a throttled phone's main thread before its first paint (issue 46).

/** SPEC §3 password form: the current password plus the contract's new-password pair (rule and mismatch messages). */
export const passwordFormSchema = z.object({ oldPassword: z.string().min(1, { error: messages.required }) }).and(passwordPairSchema);

/** SPEC §3 User, §5: the personal data. */
export const profileFormSchema = profileSchema;
