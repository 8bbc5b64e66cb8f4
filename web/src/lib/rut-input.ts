import { formatRut } from "@contract/rut.ts";

/** Formats a Rut while it is typed: keeps digits and K, adds the dots and the hyphen before the last character. */
export function formatRutInput(raw: string): string {
  const clean = raw
    .replace(/[^0-9kK]/g, "")
    .toUpperCase()
    .slice(0, 9);
  if (clean.length < 2) return clean;
  return formatRut(`${clean.slice(0, -1)}-${clean.slice(-1)}`);
}
