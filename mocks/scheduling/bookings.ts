import { randomInt } from "node:crypto";
import { chileDayFrom, slotsForDay, type Slot } from "./slots.ts";

/** FHIR R4 Appointment.status values the agenda uses. */
export type BookingStatus = "booked" | "fulfilled" | "cancelled" | "noshow";

export interface Booking {
  /** Booking code, also the FHIR Appointment id: "<CENTER CODE>-<6 characters>". */
  code: string;
  externalCenterId: string;
  slot: Slot;
  /** Normalized, e.g. "12345678-5". */
  rut: string;
  email: string;
  status: BookingStatus;
  /** Whether the patient confirmed attendance (FHIR: the patient participant's status is accepted). */
  confirmed: boolean;
  cancelationReason?: string;
  created: Date;
  /** FHIR meta.versionId: goes up with every change. */
  version: number;
  updated: Date;
}

const codeAlphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

function bookingCode(externalCenterId: string): string {
  const prefix = externalCenterId.split("@")[0] ?? "RES";
  const suffix = Array.from({ length: 6 }, () => codeAlphabet[randomInt(codeAlphabet.length)]).join("");
  return `${prefix}-${suffix}`;
}

const slotKey = (externalCenterId: string, slotId: string) => `${externalCenterId}|${slotId}`;

/**
 * In-memory appointments of every center: those booked in the pages and the seeded ones. A slot is taken while a
 * booking on it is not cancelled; cancelling frees it for the pages at once.
 */
export class BookingLedger {
  private readonly byCode = new Map<string, Booking>();
  private readonly activeBySlot = new Map<string, Booking>();

  isBooked(externalCenterId: string, slotId: string): boolean {
    return this.activeBySlot.has(slotKey(externalCenterId, slotId));
  }

  book(
    externalCenterId: string,
    slot: Slot,
    patient: { rut: string; email: string },
    options: { status?: BookingStatus; confirmed?: boolean; now?: Date } = {},
  ): Booking {
    let code = bookingCode(externalCenterId);
    while (this.byCode.has(code)) code = bookingCode(externalCenterId);
    const now = options.now ?? new Date();
    const booking: Booking = {
      code,
      externalCenterId,
      slot,
      ...patient,
      status: options.status ?? "booked",
      confirmed: options.confirmed ?? false,
      created: now,
      version: 1,
      updated: now,
    };
    this.byCode.set(code, booking);
    if (booking.status !== "cancelled") this.activeBySlot.set(slotKey(externalCenterId, slot.id), booking);
    return booking;
  }

  find(code: string): Booking | undefined {
    return this.byCode.get(code);
  }

  /** Every booking, any patient and status (the agenda's search by date). */
  all(): Booking[] {
    return [...this.byCode.values()];
  }

  /** The bookings of the patient with that normalized RUT, any status. */
  forRut(rut: string): Booking[] {
    return [...this.byCode.values()].filter((booking) => booking.rut === rut);
  }

  cancel(booking: Booking, reason: string, now: Date): void {
    booking.status = "cancelled";
    booking.cancelationReason = reason;
    this.touch(booking, now);
    const key = slotKey(booking.externalCenterId, booking.slot.id);
    if (this.activeBySlot.get(key) === booking) this.activeBySlot.delete(key);
  }

  confirm(booking: Booking, now: Date): void {
    booking.confirmed = true;
    this.touch(booking, now);
  }

  private touch(booking: Booking, now: Date) {
    booking.version += 1;
    booking.updated = now;
  }
}

/** Demo patients of the portal's seed (server/db/seed.ts) with appointments in the agenda. */
const demoPatients = [
  { rut: "12345678-5", email: "paciente@portalpacientes.cl" },
  { rut: "16789012-1", email: "incompleto@portalpacientes.cl" },
  { rut: "15555555-6", email: "primer.ingreso@portalpacientes.cl" },
];

/**
 * Past and upcoming appointments of the demo patients at several centers, dated from `now`: two done, one cancelled,
 * one booked in three days, one confirmed in five days and one in twelve days (beyond the pages' five days).
 */
const demoPlan: Array<{ center: string; days: number; slot: number; status: BookingStatus; confirmed?: boolean }> = [
  { center: "HCS@4", days: -40, slot: 1, status: "fulfilled", confirmed: true },
  { center: "MMELI@10", days: -95, slot: 2, status: "fulfilled", confirmed: true },
  { center: "PMONTT@6", days: -20, slot: 0, status: "cancelled" },
  { center: "HCS@4", days: 3, slot: 2, status: "booked" },
  { center: "MPENA@12", days: 5, slot: 1, status: "booked", confirmed: true },
  { center: "LIRCAY@3", days: 12, slot: 3, status: "booked" },
];

export function seedDemoBookings(ledger: BookingLedger, now: Date): void {
  demoPatients.forEach((patient, patientIndex) => {
    for (const plan of demoPlan) {
      // Each patient's appointment sits on a different slot of the day, so two demo patients never share one.
      const slots = slotsForDay(plan.center, chileDayFrom(now, plan.days));
      const slot = slots[(plan.slot + patientIndex) % slots.length]!;
      const booking = ledger.book(plan.center, slot, patient, { status: plan.status, confirmed: plan.confirmed, now });
      if (plan.status === "cancelled") ledger.cancel(booking, "Paciente no puede asistir", now);
    }
  });
}
