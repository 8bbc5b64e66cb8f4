import { afterAll, beforeAll, expect, it } from "vitest";
import { Role } from "../../server/contract/roles.ts";
import {
  NOTICE_RUN_LIMIT_MS,
  NOTICE_SEARCH_CURSOR,
  NOTICE_SEARCH_PAGE,
  pollNewResultNotices,
} from "../../server/features/notices/notices.service.ts";
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

/**
 * Runs `work` with the laboratory's order list calling `onAsked(rut)` first (which may throw, as a provider that fails)
 * and a mail queue that never holds a backlog, then puts both back.
 */
async function withSearchStubs<T>(onAsked: (rut: string) => void, work: () => Promise<T>): Promise<T> {
  const lab = ctx.app.deps.providers.lab;
  const listOrders = lab.listOrders.bind(lab);
  lab.listOrders = async (rut, range) => {
    onAsked(rut);
    return listOrders(rut, range);
  };
  const pending = ctx.app.deps.mailQueue!.pending;
  ctx.app.deps.mailQueue!.pending = async () => 0;
  try {
    return await work();
  } finally {
    lab.listOrders = listOrders;
    ctx.app.deps.mailQueue!.pending = pending;
  }
}

it("pauses the configured time between one patient's provider calls and the next patient's, never in the middle of one", async () => {
  const events: string[] = [];
  const lab = ctx.app.deps.providers.lab;
  const listOrders = lab.listOrders.bind(lab);
  lab.listOrders = async (rut, range) => {
    events.push(`lab ${rut}`);
    return listOrders(rut, range);
  };
  const pauses: number[] = [];
  // This data set's notices outrun the test's mail catcher; waiting for the queue is the next test's subject.
  const pending = ctx.app.deps.mailQueue!.pending;
  ctx.app.deps.mailQueue!.pending = async () => 0;
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
    ctx.app.deps.mailQueue!.pending = pending;
  }
});

it("does not pause at all when RESULT_NOTICE_PAUSE_MS is 0", async () => {
  const quick = await createTestContext({ RESULT_NOTICE_PAUSE_MS: "0" });
  try {
    const pauses: number[] = [];
    quick.app.deps.mailQueue!.pending = async () => 0;
    await pollNewResultNotices(quick.app.deps, { pause: async (ms) => void pauses.push(ms) });
    expect(pauses).toEqual([]);
  } finally {
    await quick.close();
  }
});

// Issue 24's load run, again: the first search over the data set's 10,000 patients queued ≈ 23 notices a second while
// SMTP took ≈ 8, so the mail queue grew by thousands and each delivery's fetch sorted all of them (6 ms of PostgreSQL a
// mail, 17.6 s of its 300). The search now waits while the queue holds more than RESULT_NOTICE_MAIL_BACKLOG mails.
it("waits before the next patient while more mails than RESULT_NOTICE_MAIL_BACKLOG wait to go out, and goes on once they have", async () => {
  const paced = await createTestContext({ RESULT_NOTICE_PAUSE_MS: "0", RESULT_NOTICE_MAIL_BACKLOG: "20" });
  try {
    const queue = paced.app.deps.mailQueue!;
    const backlog = [25, 21, 20, 0];
    queue.pending = async () => backlog.shift() ?? 0;
    const events: string[] = [];
    const lab = paced.app.deps.providers.lab;
    const listOrders = lab.listOrders.bind(lab);
    lab.listOrders = async (rut, range) => {
      events.push("lab");
      return listOrders(rut, range);
    };
    const { patients } = await pollNewResultNotices(paced.app.deps, { pause: async (ms) => void events.push(`wait ${ms}`) });
    expect(patients).toBeGreaterThanOrEqual(3);
    // The first patient goes at once; before the second the queue holds 25, then 21 (wait, wait), then 20 (go on).
    expect(events.slice(0, 4)).toEqual(["lab", "wait 1000", "wait 1000", "lab"]);
    expect(events.filter((event) => event === "lab")).toHaveLength(patients);
  } finally {
    await paced.close();
  }
});

it("ends a search that has run NOTICE_RUN_LIMIT_MS, leaving the patients not reached to the next run", async () => {
  let clock = 0;
  let asked = 0;
  const onAsked = () => {
    asked++;
    clock += NOTICE_RUN_LIMIT_MS / 2 + 1; // each patient takes over half the limit
  };
  await withSearchStubs(onAsked, async () => {
    const result = await pollNewResultNotices(ctx.app.deps, { pause: async () => {}, now: () => clock });
    expect(result.patients).toBeGreaterThanOrEqual(3);
    expect(asked).toBe(2);
    expect(result).toMatchObject({ reached: 2, ended: "time limit" });
  });
});

// Read from the code (2-12-2026): a run ended by the time limit "left the patients not reached to the next run", but the
// next run began again with the first patient, so with more patients than one run reaches (≈ 12,000 at the default
// pause) the rest were never searched. Each run now goes on from the patient after the last one reached.
it("goes on, in the next run, from the patient after the last one a run ended by the time limit reached, and starts over after the last patient", async () => {
  let clock = 0;
  let slow = true;
  let asked: string[] = [];
  const onAsked = (rut: string) => {
    asked.push(rut);
    if (slow) clock += NOTICE_RUN_LIMIT_MS / 2 + 1;
  };
  const run = () => pollNewResultNotices(ctx.app.deps, { pause: async () => {}, now: () => clock });
  await withSearchStubs(onAsked, async () => {
    await ctx.db.prisma.jobCursor.deleteMany();
    const inOrder = (
      await ctx.db.prisma.user.findMany({
        where: { roleType: Role.patient, email: { not: "" } },
        orderBy: { id: "asc" },
        select: { rut: true },
      })
    ).map((patient) => patient.rut);

    expect(await run()).toMatchObject({ reached: 2, ended: "time limit" });
    expect(asked).toEqual(inOrder.slice(0, 2));

    asked = [];
    slow = false;
    expect(await run()).toMatchObject({ reached: inOrder.length - 2, ended: "done" });
    expect(asked).toEqual(inOrder.slice(2));

    asked = [];
    expect(await run()).toMatchObject({ reached: inOrder.length, ended: "done" });
    expect(asked).toEqual(inOrder);
  });
});

it("goes on from the patient it did not finish when a provider fails in the middle of a run", async () => {
  let asked: string[] = [];
  let failOn = 2;
  const onAsked = (rut: string) => {
    asked.push(rut);
    if (asked.length === failOn) throw new Error("laboratorio caído");
  };
  await withSearchStubs(onAsked, async () => {
    await ctx.db.prisma.jobCursor.deleteMany();
    await expect(pollNewResultNotices(ctx.app.deps, { pause: async () => {} })).rejects.toThrow("laboratorio caído");
    const [first, second] = asked;
    asked = [];
    failOn = 0;
    await pollNewResultNotices(ctx.app.deps, { pause: async () => {} });
    expect(asked[0]).toBe(second);
    expect(asked).not.toContain(first);
  });
});

it("keeps its place after each page of patients, so a run killed halfway is retried from there and not from its start", async () => {
  const many = await createTestContext({ RESULT_NOTICE_PAUSE_MS: "0" });
  try {
    const { prisma } = many.db;
    await prisma.user.createMany({
      data: Array.from({ length: NOTICE_SEARCH_PAGE + 5 }, (_, n) => ({
        rut: rutOf(17_700_001 + n),
        email: `pagina${n}@correo.cl`,
        roleType: Role.patient,
        passwordHash: "sin-contraseña",
      })),
    });
    const inOrder = await prisma.user.findMany({
      where: { roleType: Role.patient, email: { not: "" } },
      orderBy: { id: "asc" },
      select: { id: true },
    });
    const { lab, imaging } = many.app.deps.providers;
    let asked = 0;
    let placeAtSecondPage: number | undefined;
    lab.listOrders = async () => {
      asked++;
      if (asked === NOTICE_SEARCH_PAGE + 1)
        placeAtSecondPage = (await prisma.jobCursor.findUnique({ where: { job: NOTICE_SEARCH_CURSOR } }))?.afterId;
      return [];
    };
    imaging.searchStudies = async () => [];
    many.app.deps.mailQueue!.pending = async () => 0;
    expect(await pollNewResultNotices(many.app.deps, { pause: async () => {} })).toMatchObject({ ended: "done" });
    expect(asked).toBe(inOrder.length);
    expect(placeAtSecondPage).toBe(inOrder[NOTICE_SEARCH_PAGE - 1]!.id);
  } finally {
    await many.close();
  }
});
