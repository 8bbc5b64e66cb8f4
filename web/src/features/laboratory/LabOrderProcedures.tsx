import { LoadFailure } from "../../components/ui/LoadFailure.tsx";
import { ResultStatusDot } from "../../components/ui/ResultStatusDot.tsx";
import { RESULTS_ERROR_MESSAGE } from "../../lib/results.ts";
import { useLabOrder } from "./api/laboratory.api.ts";

/** An order's procedures with their status dot; fetched the first time the row opens, then kept (SPEC §4). */
export function LabOrderProcedures({ orderNumber }: { orderNumber: string }) {
  const detail = useLabOrder(orderNumber);

  if (detail.isPending) return <p className="results-empty">Cargando prestaciones…</p>;
  if (detail.isError)
    return (
      <LoadFailure service="laboratorio" toast={RESULTS_ERROR_MESSAGE} onRetry={() => void detail.refetch()} retrying={detail.isFetching} />
    );
  const procedures = detail.data.listPrestaciones;
  return (
    <div className="lab-procedures" aria-label={`Prestaciones de la orden ${orderNumber}`}>
      {procedures?.length ? (
        <ul className="procedures">
          {procedures.map((procedure, index) => (
            <li key={`${procedure.name}-${index}`} className="procedures__item">
              <span>{procedure.name}</span>
              <ResultStatusDot status={procedure.status} />
            </li>
          ))}
        </ul>
      ) : (
        <p className="results-empty">La orden aún no tiene prestaciones registradas.</p>
      )}
      <p className="results-help">
        Si algún examen de esta orden no aparece 48 horas hábiles después de realizado, consulte en la clínica indicando el número de orden{" "}
        {orderNumber}.
      </p>
    </div>
  );
}
