import { authRouter } from "../features/auth/auth.router.ts";
import { termsRouter } from "../features/terms/terms.router.ts";
import { router } from "./trpc.ts";

export const appRouter = router({
  auth: authRouter,
  terms: termsRouter,
});

export type AppRouter = typeof appRouter;
