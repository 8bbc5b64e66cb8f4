import type { MouseEvent } from "react";
import { showToast } from "../../lib/overlay-store.ts";
import { Card } from "../../components/ui/Card.tsx";
import { DocumentIcon, ExternalLinkIcon } from "../../components/ui/icons.tsx";
import { formatTermsDate } from "@contract/terms-date.ts";
import { useTermsDocumentUrl } from "../../lib/clinic-queries.ts";

// SPEC §8 names no wording for a terms PDF failure; the same sentence as the terms screen's.
const PDF_FAILED = "No fue posible abrir el documento, por favor vuelva a intentarlo";

export interface DocumentsTableProps {
  /** The stored user's terms acceptance date (ISO), null while not accepted. */
  dateTyc: string | null;
}

/** 'Mi cuenta' documents: the clinic's terms and conditions PDF and when the user accepted them (DD-MM-YYYY HH:mm:ss). */
export function DocumentsTable({ dateTyc }: DocumentsTableProps) {
  const documentUrl = useTermsDocumentUrl({ staleTime: Infinity });
  const accepted = formatTermsDate(dateTyc);

  // A plain new-tab link once the address is known; before that (or if it failed) it fetches it and opens it.
  async function open(event: MouseEvent<HTMLAnchorElement>) {
    if (documentUrl.data) return;
    event.preventDefault();
    const { data } = await documentUrl.refetch();
    if (data) window.open(data, "_blank", "noopener");
    else showToast(PDF_FAILED);
  }

  // Explicit roles keep the table semantics when the narrow layout shows the rows as cards (display: block).
  return (
    <Card title="Documentos" className="account-documents">
      <table className="data-table account-documents__table" role="table">
        <thead role="rowgroup">
          <tr role="row">
            <th scope="col" role="columnheader">
              Documento
            </th>
            <th scope="col" role="columnheader">
              Fecha de aceptación
            </th>
            <th scope="col" role="columnheader">
              Ver
            </th>
          </tr>
        </thead>
        <tbody role="rowgroup">
          <tr role="row">
            <td role="cell" data-label="Documento">
              <span className="account-documents__name">
                <DocumentIcon className="account-documents__icon" />
                Términos y condiciones
              </span>
            </td>
            <td role="cell" data-label="Fecha de aceptación">
              {accepted ?? "Sin aceptar"}
            </td>
            <td role="cell" data-label="Ver">
              <a
                className="account-documents__link"
                href={documentUrl.data ?? "#"}
                target="_blank"
                rel="noopener noreferrer"
                aria-label="Ver PDF de términos y condiciones"
                onClick={(event) => void open(event)}
              >
                Ver PDF
                <ExternalLinkIcon size={16} />
              </a>
            </td>
          </tr>
        </tbody>
      </table>
    </Card>
  );
}
