import type { AppDeps } from "../deps.ts";

/** A signed access token of the user's session (login, and again after the user changes their own password). */
export function issueAccessToken(deps: Pick<AppDeps, "tokens">, user: { id: number; tokenVersion: number }, sessionId: string): string {
  return deps.tokens.sign({ userId: user.id, tokenVersion: user.tokenVersion, sessionId });
}
