// A laboratory's unit as a person reads it (issue 45): "10^3/µL" and UCUM's "10*3/uL" are written "10³/µL".

const superscripts: Record<string, string> = {
  "0": "⁰",
  "1": "¹",
  "2": "²",
  "3": "³",
  "4": "⁴",
  "5": "⁵",
  "6": "⁶",
  "7": "⁷",
  "8": "⁸",
  "9": "⁹",
  "-": "⁻",
};

/** The unit with powers of ten as superscripts and UCUM's "u" of micro as µ (before a letter, e.g. "uL" → "µL"). */
export function readableUnit(unit: string): string {
  return unit
    .replace(/10[\^*](-?\d+)/g, (_, power: string) => `10${[...power].map((digit) => superscripts[digit] ?? digit).join("")}`)
    .replace(/(^|\/)u(?=[LgmM])/g, "$1µ");
}
