export interface Slot {
  /** Unique within a center: "<YYYY-MM-DD>T<HH:MM>". */
  id: string;
  date: string;
  time: string;
  specialty: string;
  doctor: string;
}

const slotsPerDay = 4;
export const daysAhead = 5;
const clinicTimeZone = "America/Santiago";

const doctors = [
  { doctor: "Dra. Camila Rojas", specialty: "Medicina general" },
  { doctor: "Dr. Matías González", specialty: "Pediatría" },
  { doctor: "Dra. Valentina Muñoz", specialty: "Ginecología" },
  { doctor: "Dr. Benjamín Soto", specialty: "Traumatología" },
  { doctor: "Dra. Francisca Contreras", specialty: "Cardiología" },
  { doctor: "Dr. Joaquín Silva", specialty: "Dermatología" },
  { doctor: "Dra. Isidora Martínez", specialty: "Oftalmología" },
  { doctor: "Dr. Tomás Sepúlveda", specialty: "Otorrinolaringología" },
] as const;

export const doctorNames: readonly string[] = doctors.map((entry) => entry.doctor);

// Every half hour from 08:00 to 17:30.
const dayTimes = Array.from({ length: 20 }, (_, index) => {
  const minutes = 8 * 60 + index * 30;
  return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
});

function hashSeed(text: string): number {
  let hash = 0x811c9dc5;
  for (const char of text) {
    hash ^= char.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

// mulberry32: tiny seeded PRNG so the same center and date always offer the same slots.
function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(items: readonly T[], random: () => number): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error("No se puede elegir de una lista vacía");
  return item;
}

export function slotsForDay(externalCenterId: string, date: string): Slot[] {
  const random = seededRandom(hashSeed(`${externalCenterId}|${date}`));
  const remainingTimes = [...dayTimes];
  const times: string[] = [];
  while (times.length < slotsPerDay) {
    const [time] = remainingTimes.splice(Math.floor(random() * remainingTimes.length), 1);
    if (time !== undefined) times.push(time);
  }
  return times.sort().map((time) => ({ id: `${date}T${time}`, date, time, ...pick(doctors, random) }));
}

function todayInClinicTimeZone(now: Date): string {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: clinicTimeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).formatToParts(now);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
  return `${part("year")}-${part("month")}-${part("day")}`;
}

/** The `daysAhead` calendar days after today (Chilean time), as YYYY-MM-DD. */
export function upcomingDates(now: Date): string[] {
  const today = new Date(`${todayInClinicTimeZone(now)}T00:00:00Z`);
  return Array.from({ length: daysAhead }, (_, index) => {
    const day = new Date(today);
    day.setUTCDate(today.getUTCDate() + index + 1);
    return day.toISOString().slice(0, 10);
  });
}

export function upcomingSlots(externalCenterId: string, now: Date): Slot[] {
  return upcomingDates(now).flatMap((date) => slotsForDay(externalCenterId, date));
}

const dateLabelFormat = new Intl.DateTimeFormat("es-CL", {
  weekday: "long",
  day: "numeric",
  month: "long",
  timeZone: "UTC",
});

/** E.g. "Martes, 4 de marzo". */
export function formatSlotDate(date: string): string {
  const label = dateLabelFormat.format(new Date(`${date}T00:00:00Z`));
  return label.charAt(0).toUpperCase() + label.slice(1);
}

const chileClock = new Intl.DateTimeFormat("sv-SE", {
  timeZone: clinicTimeZone,
  hourCycle: "h23",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
});

/** The instant a wall-clock time (YYYY-MM-DD, HH:MM) in Santiago stands for. */
export function chileInstant(date: string, time: string): Date {
  const wall = Date.parse(`${date}T${time}:00Z`);
  const offsetAt = (at: number) => Date.parse(`${chileClock.format(new Date(at)).replace(" ", "T")}:00Z`) - at;
  const guess = wall - offsetAt(wall);
  // Near a change of offset the first guess may sit on the other side of it: correct with the offset found there.
  return new Date(wall - offsetAt(guess));
}

/** The Santiago calendar day `days` after (or before, when negative) the day of `now`. */
export function chileDayFrom(now: Date, days: number): string {
  const day = new Date(`${todayInClinicTimeZone(now)}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + days);
  return day.toISOString().slice(0, 10);
}
