import type { AppDeps } from "../deps.ts";
import { signAccessToken } from "./tokens.ts";

/** A signed access token for the user (login, and again after the user changes their own password). */
export async function issueAccessToken(deps: Pick<AppDeps, "config">, user: { id: number; tokenVersion: number }): Promise<string> {
  return signAccessToken(
    deps.config.JWT_SECRET,
    { userId: user.id, tokenVersion: user.tokenVersion },
    deps.config.ACCESS_TOKEN_TTL_MINUTES,
  );
}
