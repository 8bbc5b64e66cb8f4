/** Chilean RUT helpers: "12.345.678-5" ⇄ "12345678-5", with modulo-11 check digit. */

export function normalizeRut(input: string): string {
  return input.replace(/[.\s]/g, "").toUpperCase();
}

export function checkDigitFor(body: string): string {
  let sum = 0;
  let factor = 2;
  for (const digit of [...body].reverse()) {
    sum += Number(digit) * factor;
    factor = factor === 7 ? 2 : factor + 1;
  }
  const remainder = 11 - (sum % 11);
  if (remainder === 11) return "0";
  if (remainder === 10) return "K";
  return String(remainder);
}

export function isValidRut(input: string): boolean {
  const match = /^(\d{7,8})-([\dK])$/.exec(normalizeRut(input));
  if (!match?.[1] || !match[2]) return false;
  return checkDigitFor(match[1]) === match[2];
}

export function formatRut(normalized: string): string {
  const [body = "", checkDigit = ""] = normalized.split("-");
  return `${body.replace(/\B(?=(\d{3})+$)/g, ".")}-${checkDigit}`;
}
