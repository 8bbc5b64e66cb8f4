import { Readable } from "node:stream";
import { ZipFile } from "yazl";
import { z } from "zod";
import { ZDataExport } from "../../contract/data-export.schema.ts";
import type { AppDeps } from "../../deps.ts";

// The ZIP of 'Descargar mis datos', streamed as it is read: the prepared parts (small) first, then each bill PDF read
// from the database only when the ZIP reaches it (yazl pumps one entry at a time), so neither the ZIP nor all the PDFs
// are ever in memory together.

export interface PreparedExport {
  datosJson: string;
  labJson: string;
  summaryPdf: Uint8Array;
  files: Array<{ id: number; zipPath: string }>;
}

const README = `Sus datos en el Portal Pacientes

datos.json          sus datos como los guarda el portal (esquema: datos.schema.json, JSON Schema 2020-12)
laboratorio.json    sus informes y resultados de laboratorio: un Bundle FHIR R4 (HL7) de DiagnosticReport y Observation
resumen.pdf         un resumen legible en español
cuentas/            los documentos PDF de sus cuentas hospitalarias

Las fechas de sus cuentas, de su nacimiento, de sus órdenes y de sus estudios son días del calendario (AAAA-MM-DD),
sin hora: se leen tal cual, en cualquier zona horaria. Los demás momentos (pagos, registros) son instantes en UTC.

Su ficha clínica se mantiene en la clínica, como exige la Ley N° 20.584.
`;

export function exportZipStream(deps: Pick<AppDeps, "prisma">, prepared: PreparedExport): Readable {
  const zip = new ZipFile();
  zip.addBuffer(Buffer.from(README, "utf8"), "LEEME.txt");
  zip.addBuffer(Buffer.from(prepared.datosJson, "utf8"), "datos.json");
  zip.addBuffer(Buffer.from(JSON.stringify(z.toJSONSchema(ZDataExport), null, 2), "utf8"), "datos.schema.json");
  zip.addBuffer(Buffer.from(prepared.labJson, "utf8"), "laboratorio.json");
  zip.addBuffer(Buffer.from(prepared.summaryPdf), "resumen.pdf", { compress: false });
  for (const file of prepared.files) {
    zip.addReadStreamLazy(file.zipPath, { compress: false }, (done) => {
      deps.prisma.billFile
        .findUnique({ where: { id: file.id }, select: { content: true } })
        .then((row) => done(null, Readable.from([Buffer.from(row?.content ?? new Uint8Array())])))
        .catch((error: unknown) => done(error, Readable.from([])));
    });
  }
  zip.end();
  return zip.outputStream as Readable;
}
