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

En esta descarga:

resumen.pdf         un resumen de sus datos, para leer e imprimir (ábralo primero)
cuentas/            los documentos PDF de sus cuentas hospitalarias
datos.json          todos sus datos del portal, en un archivo que otro programa o sistema puede leer
laboratorio.json    sus informes y resultados de laboratorio, en el formato que usan los sistemas de salud
datos.schema.json   la descripción de datos.json, para quien lo lea con un programa

Las fechas de sus cuentas, de su nacimiento, de sus órdenes y de sus estudios son días del calendario: valen igual
en cualquier país u hora.

Su ficha clínica se mantiene en la clínica, como exige la Ley N° 20.584.


Nota técnica (para quien procese los archivos con un programa)
---------------------------------------------------------------
datos.json sigue el esquema datos.schema.json (JSON Schema 2020-12). laboratorio.json es un Bundle FHIR R4 (HL7) de
DiagnosticReport y Observation. Los días van como AAAA-MM-DD, sin hora ni zona; los demás momentos (pagos,
registros) son instantes en UTC (ISO 8601).
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
