import { z } from "zod";
import { releaseRulesSetting } from "../../lib/release-rules.ts";

/** Release rules and result notices (issue 31). */
export const resultsConfigSchema = z.object({
  /** Per clinic key (or "*" for all): test codes given only in person, and days before others are shown. See release-rules.ts. */
  RESULT_RELEASE_RULES: releaseRulesSetting,
  /** When the providers are asked for new results to notify (cron, Chile time); empty = never. Unset: every 15 minutes, never in tests. */
  RESULT_NOTICE_CRON: z.string().trim().optional(),
  /** Results and bills older than this many days never cause a notice (the first run does not mail a patient's history). */
  RESULT_NOTICE_LOOKBACK_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  /**
   * Pause between two patients of the search for new results, so the search (two provider calls per patient) takes
   * little CPU from the instance serving patients and spreads its calls to the providers: 50 ms polls 10,000 patients
   * in ≈ 10 minutes, within the 15 of the schedule. 0: no pause.
   */
  RESULT_NOTICE_PAUSE_MS: z.coerce.number().int().min(0).max(10_000).default(50),
  /**
   * The search waits before its next patient while more mails than this wait to go out (the durable mail queue): it
   * finds notices faster than SMTP takes them, and a queue thousands long costs PostgreSQL a sort of all of them for
   * each delivery. Notices then leave at the pace SMTP takes them.
   */
  RESULT_NOTICE_MAIL_BACKLOG: z.coerce.number().int().min(1).max(100_000).default(50),
  /**
   * Issue 26: how long the provider's answer to a patient's laboratory orders list and imaging studies list is kept
   * (per patient and dates; 'Actualizar' asks again). At most 60 s, what the issue allows; 0 caches nothing.
   */
  RESULTS_CACHE_SECONDS: z.coerce.number().int().min(0).max(60).default(60),
});
