import { describe, expect, it } from "vitest";
import { amountSchema, billFormSchema, typedAmountValue } from "./bills.schemas.ts";

// Issue 33: an amount typed with the thousands dot is the same amount; SPEC §5's "digits only" is about the value.

const form = (amount: string) => ({
  rut: "12.345.678-5",
  accountCode: "710001",
  createAccountIdDate: "2026-02-01",
  amount,
  isPaid: "false",
});

describe("bill amounts as typed", () => {
  it("accepts '21.839' and '21839' as 21839, in the form and on the wire", () => {
    for (const typed of ["21.839", "21839", "1.234.567"]) expect(billFormSchema.safeParse(form(typed)).success).toBe(true);
    expect(typedAmountValue("21.839")).toBe(21839);
    expect(typedAmountValue("1.234.567")).toBe(1234567);
    expect(amountSchema.parse("21.839")).toBe(21839);
  });

  it("refuses what is not a whole amount with 'Solo números'", () => {
    for (const typed of ["21,5", "2.18", "21.8390", "12a", ".839"]) {
      const result = billFormSchema.safeParse(form(typed));
      expect(result.success, typed).toBe(false);
      expect(result.error?.issues[0]?.message).toBe("Solo números");
    }
  });

  it("refuses $ 0 in the form and on the wire, with the range it accepts (issue 42, point 10)", () => {
    for (const typed of ["0", "000"]) {
      const result = billFormSchema.safeParse(form(typed));
      expect(result.error?.issues[0]?.message, typed).toBe("El monto debe ser un número entero entre 1 y 999.999.999");
    }
    expect(amountSchema.safeParse(0).success).toBe(false);
    expect(amountSchema.parse("1")).toBe(1);
  });
});
