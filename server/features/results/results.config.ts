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
});
