import { useState } from "react";
import type { LabProcedureDto } from "@contract/results.dto.ts";
import { LoadFailure } from "../../components/ui/LoadFailure.tsx";
import { ResultStatusDot } from "../../components/ui/ResultStatusDot.tsx";
import { RESULTS_ERROR_MESSAGE } from "../../lib/results.ts";
import { useLabOrder } from "./api/laboratory.api.ts";
import { AnalyteTrend } from "./AnalyteTrend.tsx";

const flagText = { H: "alto", L: "bajo", N: "normal" } as const;

function ProcedureValue({ procedure }: { procedure: LabProcedureDto }) {
  if (procedure.releaseNote) return <span className="procedures__note">{procedure.releaseNote}</span>;
  if (procedure.value === null) return null;
  const out = procedure.flag === "H" || procedure.flag === "L";
  return (
    <span className={`procedures__value${out ? " procedures__value--out" : ""}`}>
      {procedure.value.toLocaleString("es-CL")} {procedure.unit}
      {procedure.flag ? ` (${flagText[procedure.flag]})` : ""}
    </span>
  );
}

/** An order's procedures with their status dot; fetched the first time the row opens, then kept (SPEC §4). */
export function LabOrderProcedures({ orderNumber }: { orderNumber: string }) {
  const detail = useLabOrder(orderNumber);
  const [trend, setTrend] = useState<{ code: string; name: string } | null>(null);

  if (detail.isPending) return <p className="results-empty">Cargando prestaciones…</p>;
  if (detail.isError)
    return (
      <LoadFailure service="laboratorio" toast={RESULTS_ERROR_MESSAGE} onRetry={() => void detail.refetch()} retrying={detail.isFetching} />
    );
  const procedures = detail.data.listPrestaciones;
  return (
    <div className="lab-procedures" aria-label={`Prestaciones de la orden ${orderNumber}`}>
      {detail.data.releaseNote ? <p className="procedures__note">{detail.data.releaseNote}</p> : null}
      {procedures?.length ? (
        <ul className="procedures">
          {procedures.map((procedure, index) => (
            <li key={`${procedure.name}-${index}`} className="procedures__item">
              <span className="procedures__name">{procedure.name}</span>
              <ProcedureValue procedure={procedure} />
              <ResultStatusDot status={procedure.status} />
              {procedure.code && procedure.value !== null ? (
                <button
                  type="button"
                  className="btn btn--link procedures__trend"
                  aria-label={`Ver evolución de ${procedure.name}`}
                  aria-expanded={trend?.code === procedure.code}
                  onClick={() => setTrend({ code: procedure.code!, name: procedure.name })}
                >
                  Ver evolución
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <p className="results-empty">La orden aún no tiene prestaciones registradas.</p>
      )}
      {trend ? <AnalyteTrend key={trend.code} code={trend.code} name={trend.name} onClose={() => setTrend(null)} /> : null}
      <p className="results-help">
        Si algún examen de esta orden no aparece 48 horas hábiles después de realizado, consulte en la clínica indicando el número de orden{" "}
        {orderNumber}.
      </p>
    </div>
  );
}
