import { afterAll, beforeAll, expect, it } from "vitest";
import { Role } from "../../server/contract/roles.ts";
import { pollNewResultNotices } from "../../server/features/notices/notices.service.ts";
import { insertUser, rutOf } from "../helpers/fixtures.ts";
import { createTestContext, type TestContext } from "../helpers/test-app.ts";

// The scheduled search for new results asks the laboratory and imaging for every patient who wants notices. Run at
// full speed over a clinic's 10,000 patients it took the CPU of the instance that ran it while patients were being
// served (issue 24's load run: a third of that instance's CPU). It now pauses RESULT_NOTICE_PAUSE_MS between patients.

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ RESULT_NOTICE_PAUSE_MS: "40" });
  for (let n = 0; n < 3; n++)
    await insertUser(ctx.db.prisma, {
      rut: rutOf(17_600_001 + n),
      email: `ritmo${n}@correo.cl`,
      roleType: Role.patient,
      patientClinics: ["hcs-rcr"],
    });
}, 60_000);
afterAll(() => ctx.close());

it("pauses the configured time between one patient's provider calls and the next patient's, never in the middle of one", async () => {
  const events: string[] = [];
  const lab = ctx.app.deps.providers.lab;
  const listOrders = lab.listOrders.bind(lab);
  lab.listOrders = async (rut, range) => {
    events.push(`lab ${rut}`);
    return listOrders(rut, range);
  };
  const pauses: number[] = [];
  try {
    const { patients } = await pollNewResultNotices(ctx.app.deps, {
      pause: async (ms) => {
        pauses.push(ms);
        events.push("pause");
      },
    });
    expect(patients).toBeGreaterThanOrEqual(3);
    expect(pauses).toEqual(Array.from({ length: patients - 1 }, () => 40));
    // lab, pause, lab, pause, …, lab: one pause between each two patients.
    expect(events.filter((event) => event !== "pause")).toHaveLength(patients);
    events.forEach((event, index) => expect(event === "pause").toBe(index % 2 === 1));
  } finally {
    lab.listOrders = listOrders;
  }
});

it("does not pause at all when RESULT_NOTICE_PAUSE_MS is 0", async () => {
  const quick = await createTestContext({ RESULT_NOTICE_PAUSE_MS: "0" });
  try {
    const pauses: number[] = [];
    await pollNewResultNotices(quick.app.deps, { pause: async (ms) => void pauses.push(ms) });
    expect(pauses).toEqual([]);
  } finally {
    await quick.close();
  }
});
