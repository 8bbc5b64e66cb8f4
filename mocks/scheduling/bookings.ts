import { randomInt } from "node:crypto";
import type { Slot } from "./slots.ts";

export interface Booking {
  code: string;
  externalCenterId: string;
  slot: Slot;
  /** Normalized, e.g. "12345678-5". */
  rut: string;
  email: string;
}

const codeAlphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

function bookingCode(externalCenterId: string): string {
  const prefix = externalCenterId.split("@")[0] ?? "RES";
  const suffix = Array.from({ length: 6 }, () => codeAlphabet[randomInt(codeAlphabet.length)]).join("");
  return `${prefix}-${suffix}`;
}

/** In-memory bookings, per center, keyed by slot id. */
export class BookingLedger {
  private readonly bookingsByCenter = new Map<string, Map<string, Booking>>();

  isBooked(externalCenterId: string, slotId: string): boolean {
    return this.bookingsByCenter.get(externalCenterId)?.has(slotId) ?? false;
  }

  book(externalCenterId: string, slot: Slot, patient: { rut: string; email: string }): Booking {
    const booking: Booking = { code: bookingCode(externalCenterId), externalCenterId, slot, ...patient };
    const centerBookings = this.bookingsByCenter.get(externalCenterId) ?? new Map<string, Booking>();
    centerBookings.set(slot.id, booking);
    this.bookingsByCenter.set(externalCenterId, centerBookings);
    return booking;
  }
}
