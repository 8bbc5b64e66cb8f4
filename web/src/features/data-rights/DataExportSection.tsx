import { useState } from "react";
import { Banner } from "../../components/ui/Banner.tsx";
import { Button } from "../../components/ui/Button.tsx";
import { formatChileDateTime } from "../../lib/dates.ts";
import { errorMessage } from "../../lib/trpc.ts";
import { useExportState, useRequestExport } from "./api/data-rights.api.ts";

/** Follows the signed link in this tab: the server answers it as an attachment, so the page stays. */
function followDownload(url: string) {
  const anchor = document.createElement("a");
  anchor.href = url;
  anchor.rel = "noopener";
  document.body.appendChild(anchor);
  anchor.click();
  anchor.remove();
}

/**
 * 'Descargar mis datos' (issue 28): one click prepares a ZIP in the background (datos.json, laboratorio.json in FHIR
 * R4, resumen.pdf and the bills' PDFs); the page follows it and offers the download for 24 hours. One per hour.
 */
export function DataExportSection() {
  const state = useExportState();
  const [refusal, setRefusal] = useState<string | null>(null);
  const request = useRequestExport({
    onSuccess: () => {
      setRefusal(null);
      void state.refetch();
    },
    onError: (error) => setRefusal(errorMessage(error, "No fue posible preparar sus datos, por favor intente más tarde")),
  });
  const latest = state.data?.latest ?? null;
  const canAsk = !latest || Date.parse(latest.nextAllowedAt) <= Date.now() || latest.status === "failed";

  return (
    <div className="data-export">
      <p>
        Prepare un archivo ZIP con sus datos personales, sus aceptaciones de términos, sus clínicas, sus cuentas hospitalarias con sus pagos
        y documentos, y sus órdenes de laboratorio y estudios de imagenología. Incluye un resumen en PDF y sus resultados de laboratorio en
        un formato que otros sistemas de salud pueden leer.
      </p>
      {latest?.status === "preparing" ? (
        <p role="status" className="data-export__status">
          Estamos preparando sus datos. Esto puede tardar unos segundos.
        </p>
      ) : null}
      {latest?.status === "ready" && latest.downloadUrl ? (
        <div className="data-export__ready" role="status">
          <p>Sus datos están listos. Puede descargarlos hasta el {formatChileDateTime(latest.expiresAt)}.</p>
          <Button onClick={() => followDownload(latest.downloadUrl!)}>Descargar ZIP</Button>
        </div>
      ) : null}
      {latest?.status === "failed" ? <Banner>No fue posible preparar sus datos. Vuelva a pedirlos.</Banner> : null}
      {refusal ? <Banner onClose={() => setRefusal(null)}>{refusal}</Banner> : null}
      <div className="data-export__actions">
        <Button
          variant={latest?.status === "ready" ? "secondary" : "primary"}
          disabled={request.isPending}
          onClick={() => request.mutate()}
        >
          Preparar mis datos
        </Button>
        {!canAsk && latest ? <span className="form__reason">Puede pedir sus datos una vez por hora.</span> : null}
      </div>
    </div>
  );
}
