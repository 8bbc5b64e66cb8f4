// Chilean RUT helpers (SPEC §5): "12.345.678-5" with thousands dots, a hyphen and a modulo-11 check digit (0-9 or K).

import { linearPattern } from "./linear-pattern.ts";

/** The longest a RUT can be written ("12.345.678-5" is 12), with room for stray spaces. */
export const MAX_RUT_LENGTH = 20;

const rutPattern = linearPattern("([0-9]{1,2}(\\.[0-9]{3}){2}|[0-9]{1,3}\\.[0-9]{3}|[0-9]{4,8})-[0-9kK]");

/** Computes the modulo-11 check digit of the RUT's body ("12345678" → "5"; 11 → "0", 10 → "K"). */
export function rutCheckDigit(body: string): string {
  let sum = 0;
  let factor = 2;
  for (let i = body.length - 1; i >= 0; i--) {
    sum += Number(body[i]) * factor;
    factor = factor === 7 ? 2 : factor + 1;
  }
  const digit = 11 - (sum % 11);
  if (digit === 11) return "0";
  if (digit === 10) return "K";
  return String(digit);
}

/** True for a RUT in Chilean format (dots optional) whose check digit matches. */
export function isValidRut(value: string): boolean {
  if (value.length > MAX_RUT_LENGTH) return false;
  const trimmed = value.trim();
  if (!rutPattern.matches(trimmed)) return false;
  const [body, digit] = trimmed.replace(/\./g, "").split("-") as [string, string];
  return Number(body) > 0 && rutCheckDigit(body) === digit.toUpperCase();
}

/** Canonical stored form: no dots, no leading zeros, upper-case check digit ("012.345.678-k" → "12345678-K"). */
export function normalizeRut(value: string): string {
  return value
    .trim()
    .replace(/\./g, "")
    .replace(/^0+(?=\d)/, "")
    .toUpperCase();
}

/** Display form with thousands dots ("12345678-5" → "12.345.678-5"). */
export function formatRut(value: string): string {
  const [body = "", digit = ""] = normalizeRut(value).split("-");
  return `${body.replace(/\B(?=(\d{3})+(?!\d))/g, ".")}-${digit}`;
}
