import { lazy, Suspense } from "react";
import type { AnalyteSeriesDto } from "@contract/results.dto.ts";
import { LoadFailure } from "../../components/ui/LoadFailure.tsx";
import { formatDay } from "../../lib/dates.ts";
import { RESULTS_ERROR_MESSAGE } from "../../lib/results.ts";
import { useAnalyteSeries } from "./api/laboratory.api.ts";

const AnalyteChart = lazy(() => import("./AnalyteChart.tsx"));

const flagText = { H: "Sobre el rango", L: "Bajo el rango", N: "En rango" } as const;
const number = (value: number) => value.toLocaleString("es-CL");

function rangeText(low: number | null, high: number | null, unit: string): string {
  if (low !== null && high !== null) return `${number(low)} – ${number(high)} ${unit}`;
  if (low !== null) return `Desde ${number(low)} ${unit}`;
  if (high !== null) return `Hasta ${number(high)} ${unit}`;
  return "Sin rango informado";
}

/** One result is a value, not a one-dot "evolution" (issue 45 §7). */
function SingleResult({ point, unit }: { point: AnalyteSeriesDto["points"][number]; unit: string }) {
  return (
    <div className="trend__single">
      <p>
        Hay un solo resultado: <strong>{`${number(point.value)} ${unit}`}</strong> el {formatDay(point.date)} (
        {point.flag ? flagText[point.flag].toLowerCase() : "sin referencia"}; rango de referencia: {rangeText(point.low, point.high, unit)}
        ).
      </p>
      <p>La evolución se mostrará cuando tenga más de un resultado de este examen.</p>
    </div>
  );
}

/** 'Ver evolución' of one analyte: a chart of the patient's values with the reference band, and the same data as a table. */
export function AnalyteTrend({ code, name, onClose }: { code: string; name: string; onClose(): void }) {
  const series = useAnalyteSeries(code);
  return (
    <section className="trend" aria-label={`Evolución de ${name}`}>
      <div className="trend__header">
        <h3 className="trend__title">Evolución de {name}</h3>
        <button type="button" className="btn btn--secondary" onClick={onClose}>
          Cerrar evolución
        </button>
      </div>
      {series.isPending ? <p className="results-empty">Cargando evolución…</p> : null}
      {series.isError ? (
        <LoadFailure
          service="laboratorio"
          toast={RESULTS_ERROR_MESSAGE}
          onRetry={() => void series.refetch()}
          retrying={series.isFetching}
        />
      ) : null}
      {series.data?.points.length === 1 ? <SingleResult point={series.data.points[0]!} unit={series.data.unit} /> : null}
      {series.data && series.data.points.length > 1 ? (
        <div className="trend__body">
          <Suspense fallback={<p className="results-empty">Cargando gráfico…</p>}>
            <AnalyteChart series={series.data} />
          </Suspense>
          <div className="trend__table-wrap">
            <table className="data-table trend__table" aria-label={`Valores de ${name}`}>
              <caption className="trend__caption">
                La banda verde del gráfico es el rango de referencia; los rombos rojos, los valores fuera de él.
              </caption>
              <thead>
                <tr>
                  <th scope="col">Fecha</th>
                  <th scope="col">Valor</th>
                  <th scope="col">
                    Rango<span className="trend__more"> de referencia</span>
                  </th>
                  <th scope="col">Resultado</th>
                </tr>
              </thead>
              <tbody>
                {series.data.points.map((point) => (
                  <tr key={point.orderNumber} className={point.flag === "H" || point.flag === "L" ? "trend__row--out" : undefined}>
                    <td className="trend__day">{formatDay(point.date)}</td>
                    <td>
                      {number(point.value)} {series.data.unit}
                    </td>
                    <td>{rangeText(point.low, point.high, series.data.unit)}</td>
                    <td>{point.flag ? flagText[point.flag] : "Sin referencia"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      ) : null}
    </section>
  );
}
