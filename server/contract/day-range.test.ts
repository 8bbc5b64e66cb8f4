import { describe, expect, it } from "vitest";
import { dayRangeFormSchema, dayRangeMessages } from "./day-range.ts";

const messagesOf = (range: { from: string; to: string }) => {
  const result = dayRangeFormSchema.safeParse(range);
  return result.success ? [] : result.error.issues.map((issue) => [issue.path.join("."), issue.message]);
};

describe("dayRangeFormSchema", () => {
  it("accepts a range in order, or a single day", () => {
    expect(messagesOf({ from: "2026-03-01", to: "2026-03-05" })).toEqual([]);
    expect(messagesOf({ from: "2026-03-01", to: "2026-03-01" })).toEqual([]);
  });

  it("asks for both days", () => {
    expect(messagesOf({ from: "", to: "2026-03-05" })).toEqual([["from", dayRangeMessages.bothRequired]]);
    expect(messagesOf({ from: "2026-03-01", to: "" })).toEqual([["to", dayRangeMessages.bothRequired]]);
  });

  it("refuses Desde after Hasta with the message on Hasta", () => {
    expect(messagesOf({ from: "2026-03-05", to: "2026-03-01" })).toEqual([
      ["to", "La fecha Desde no puede ser posterior a la fecha Hasta"],
    ]);
  });
});
