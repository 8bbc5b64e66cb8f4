import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { watchOutput } from "../helpers/processes.ts";

// How `npm start` and `npm run stack` stop (scripts/supervisor.mjs): a portal drains what it was doing when it is told
// to stop (the mail it was sending, a payment it was confirming), so the providers it calls stop after it, and a
// Ctrl+C in the terminal (SIGINT to the whole foreground process group) reaches the children only through the
// supervisor: once, in that order. Two stand-in children record the signals they get.

const dir = mkdtempSync(path.join(tmpdir(), "pp-supervisor-"));
const journal = path.join(dir, "journal.txt");
const supervisorUrl = pathToFileURL(path.resolve("scripts/supervisor.mjs")).href;

// A child that notes each signal, and on the first one takes 400 ms to finish (the portal draining) before it exits.
writeFileSync(
  path.join(dir, "child.mjs"),
  `import { appendFileSync } from "node:fs";
const note = (what) => appendFileSync(${JSON.stringify(journal)}, process.env.ROLE + " " + what + "\\n");
let stopping = false;
const onSignal = (signal) => {
  note(signal);
  if (stopping) return;
  stopping = true;
  setTimeout(() => { note("exited"); process.exit(0); }, Number(process.env.DRAIN_MS));
};
process.on("SIGINT", onSignal);
process.on("SIGTERM", onSignal);
setInterval(() => {}, 1_000);
console.log(process.env.ROLE + " up");
`,
);
writeFileSync(
  path.join(dir, "command.mjs"),
  `import { createSupervisor } from ${JSON.stringify(supervisorUrl)};
const supervisor = createSupervisor({ stopLast: ["providers"] });
supervisor.start("providers", ${JSON.stringify(path.join(dir, "child.mjs"))}, { ...process.env, ROLE: "providers", DRAIN_MS: "0" });
supervisor.start("portal", ${JSON.stringify(path.join(dir, "child.mjs"))}, { ...process.env, ROLE: "portal", DRAIN_MS: "400" });
supervisor.stopOnSignals();
`,
);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function stopWith(signal: NodeJS.Signals, wholeGroup: boolean): Promise<{ code: number | null; journal: string[] }> {
  writeFileSync(journal, "");
  // Its own process group, as a shell gives the command it runs in the foreground.
  const command = spawn(process.execPath, [path.join(dir, "command.mjs")], { detached: true, stdio: ["ignore", "pipe", "pipe"] });
  const output = watchOutput(command, "portal up", "the command", 30_000);
  await output.ready;
  await expect.poll(() => output.text.includes("providers up"), { timeout: 10_000 }).toBe(true);
  const exited = new Promise<number | null>((resolve) => command.once("exit", (code) => resolve(code)));
  if (wholeGroup) process.kill(-command.pid!, signal);
  else command.kill(signal);
  const code = await exited;
  return { code, journal: readFileSync(journal, "utf8").trim().split("\n") };
}

describe("the supervisor of npm start and npm run stack", () => {
  it("on Ctrl+C (SIGINT to the whole process group) stops the portal once, and the providers only after it has drained", async () => {
    const { code, journal } = await stopWith("SIGINT", true);
    expect(code).toBe(0);
    expect(journal).toEqual(["portal SIGTERM", "portal exited", "providers SIGTERM", "providers exited"]);
  }, 60_000);

  it("on a SIGTERM to the command (a process manager) stops the portal first, then the providers", async () => {
    const { code, journal } = await stopWith("SIGTERM", false);
    expect(code).toBe(0);
    expect(journal).toEqual(["portal SIGTERM", "portal exited", "providers SIGTERM", "providers exited"]);
  }, 60_000);
});
