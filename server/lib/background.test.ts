import { describe, expect, it } from "vitest";
import { BackgroundWork } from "./background.ts";

describe("BackgroundWork", () => {
  it("starts the work at once, and settles only after it and the work it started have ended", async () => {
    const work = new BackgroundWork(() => {});
    const done: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    work.run("failed", async () => {
      done.push("started");
      await gate;
      work.run("failed", async () => void done.push("second"));
      done.push("first");
    });
    expect(done).toEqual(["started"]);
    const settled = work.settled().then(() => done.push("settled"));
    await Promise.resolve();
    expect(done).toEqual(["started"]);
    release();
    await settled;
    expect(done).toEqual(["started", "second", "first", "settled"]);
  });

  it("logs a failure with its message instead of losing it, and still settles", async () => {
    const logged: Array<[unknown, string]> = [];
    const work = new BackgroundWork((error, message) => logged.push([error, message]));
    const failure = new Error("smtp down");
    work.run("email-change notice failed", async () => {
      throw failure;
    });
    await work.settled();
    expect(logged).toEqual([[failure, "email-change notice failed"]]);
  });
});
