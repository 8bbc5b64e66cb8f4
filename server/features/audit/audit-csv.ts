import type { AuditEventDto } from "../../contract/audit.schemas.ts";
import { roleLabels, type RoleType } from "../../contract/roles.ts";
import { formatChileTime } from "../../lib/chile-time.ts";

// The CSV that 'Exportar CSV' downloads. Semicolons, because Excel with Chilean (es-CL) regional settings uses the
// comma as the decimal mark and splits lists on ';'; UTF-8 with a byte-order mark, so Excel reads the accents; CRLF
// line ends (RFC 4180).

const SEPARATOR = ";";
const HEADER = [
  "Fecha (hora de Chile)",
  "Acción",
  "Resultado",
  "RUT usuario",
  "Usuario",
  "Rol",
  "RUT paciente",
  "Paciente",
  "Recurso",
  "ID recurso",
  "IP",
  "Detalle",
];

/**
 * One CSV cell. A cell a spreadsheet would read as a formula (=, +, -, @, tab, CR first) gets a leading apostrophe, so
 * a value someone typed into the portal cannot run in the admin's spreadsheet (CSV injection); cells with the
 * separator, quotes or line breaks are quoted.
 */
export function csvCell(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? "" : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[";\r\n]/.test(text) || text !== text.trim() ? `"${text.replaceAll('"', '""')}"` : text;
}

export function auditCsv(events: AuditEventDto[]): string {
  const lines = [HEADER, ...events.map(eventCells)].map((cells) => cells.map(csvCell).join(SEPARATOR));
  return `\uFEFF${lines.join("\r\n")}\r\n`;
}

function eventCells(event: AuditEventDto): Array<string | number | null> {
  return [
    formatChileTime(event.createdAt),
    event.action,
    event.outcome,
    event.actor?.rut ?? null,
    event.actor?.name ?? null,
    event.actorRole === null ? null : (roleLabels[event.actorRole as RoleType] ?? String(event.actorRole)),
    event.patient?.rut ?? null,
    event.patient?.name ?? null,
    event.resource,
    event.resourceId,
    event.ip,
    event.details,
  ];
}
