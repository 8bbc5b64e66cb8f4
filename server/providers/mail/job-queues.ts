import type PgBoss from "pg-boss";
import { isDeadlock } from "../../db/db-errors.ts";

/**
 * pg-boss's createQueue, tried again when PostgreSQL aborts it as a deadlock. Its create_queue attaches a new partition
 * to the shared job table without a lock of its own, so two instances making their queues at once (the first start of
 * a deployment) deadlock, and PostgreSQL aborts one of them. Tried again, that one finds the queue made
 * (create_queue does nothing then) or makes it alone.
 */
export async function createQueueRetryingDeadlocks(boss: PgBoss, name: string, options: PgBoss.Queue): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await boss.createQueue(name, options);
      return;
    } catch (error) {
      if (!isDeadlock(error) || attempt >= 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 200 * attempt));
    }
  }
}
