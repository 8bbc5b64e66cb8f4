import { randomUUID } from "node:crypto";
import { PDFDocument, StandardFonts, rgb } from "pdf-lib";
import type { PrismaClient } from "../generated/prisma/client.ts";
import { normalizeRut } from "../contract/rut.ts";
import { dayToDate } from "../contract/days.ts";

// Demo hospital bills (part of the demo data): the demo patients get bills at several clinics, pending and paid, with
// and without PDFs, enough for two pages of 'Cuentas hospitalarias' (see README, demo accounts).

interface DemoBill {
  accountCode: string;
  clinicCode: string;
  date: string;
  amount: number;
  isPaid: boolean;
  files: string[];
}

const clinicsCycle = ["hcs-rcr", "puertomontt-rcr", "portada-rcr", "hcs-rcr", "maitenes", "lircay-rcr"];

function demoBillsFor(seed: number, count: number, clinicCodes: string[] = clinicsCycle): DemoBill[] {
  return Array.from({ length: count }, (_, i) => {
    const month = String(12 - (i % 12)).padStart(2, "0");
    const day = String(1 + ((i * 7 + seed) % 27)).padStart(2, "0");
    const year = i < 12 ? 2025 : 2024;
    const files =
      i % 3 === 0 ? [`Detalle cuenta ${i + 1}.pdf`, `Epicrisis ${i + 1}.pdf`] : i % 3 === 1 ? [`Detalle cuenta ${i + 1}.pdf`] : [];
    return {
      accountCode: String(seed * 1000 + 100 + i),
      clinicCode: clinicCodes[i % clinicCodes.length]!,
      date: `${year}-${month}-${day}`,
      amount: 15_000 + ((i * 48_271 + seed * 977) % 1_900_000),
      isPaid: i % 4 === 1 || i % 5 === 4,
      files,
    };
  });
}

/** A small valid one-page PDF naming the bill. */
export async function demoBillPdf(title: string, lines: string[]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(title);
  pdf.setCreationDate(new Date("2026-01-01T00:00:00Z"));
  pdf.setModificationDate(new Date("2026-01-01T00:00:00Z"));
  const page = pdf.addPage([595, 420]);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  page.drawText(title, { x: 50, y: 360, size: 18, font, color: rgb(0.1, 0.2, 0.45) });
  lines.forEach((line, i) => page.drawText(line, { x: 50, y: 320 - i * 20, size: 12, font }));
  return pdf.save();
}

/** Adds the demo bills of a patient that has none yet (idempotent); returns how many bills were created. */
export async function seedDemoBills(prisma: PrismaClient): Promise<number> {
  const plan: Array<[string, DemoBill[]]> = [
    ["12.345.678-5", demoBillsFor(7, 14)],
    // Only at the clinic this patient is registered with: the staff-scope examples rely on it.
    ["16.789.012-1", demoBillsFor(3, 3, ["hcs-rcr"])],
    // The demo caregiver's dependents (seed-caregivers.ts): the minor's bills she pays, the adult's she does not see.
    ["24.567.890-8", demoBillsFor(11, 2, ["hcs-rcr"])],
    ["6.543.210-2", demoBillsFor(13, 2, ["hcs-rcr"])],
  ];
  let created = 0;
  for (const [rut, bills] of plan) {
    const patient = await prisma.user.findUnique({
      where: { rut: normalizeRut(rut) },
      select: { id: true, _count: { select: { bills: true } } },
    });
    if (!patient || patient._count.bills > 0) continue;
    for (const bill of bills) {
      const files = await Promise.all(
        bill.files.map(async (fileName) => {
          const content = await demoBillPdf(fileName.replace(/\.pdf$/, ""), [
            `Cuenta hospitalaria N° ${bill.accountCode}`,
            `Fecha: ${bill.date.split("-").reverse().join("-")}`,
            `Monto: $ ${bill.amount.toLocaleString("es-CL")}`,
            "Documento de demostración de Portal Pacientes",
          ]);
          return { path: randomUUID(), fileName, size: content.length, content: new Uint8Array(content) };
        }),
      );
      await prisma.bill.create({
        data: {
          accountCode: bill.accountCode,
          clinicCode: bill.clinicCode,
          createAccountIdDate: dayToDate(bill.date),
          amount: bill.amount,
          isPaid: bill.isPaid,
          userId: patient.id,
          files: { create: files },
        },
      });
      created++;
    }
  }
  return created;
}
