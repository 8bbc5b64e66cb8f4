import { CartesianGrid, Line, LineChart, ReferenceArea, ResponsiveContainer, Tooltip, XAxis, YAxis, type DotProps } from "recharts";
import type { AnalyteSeriesDto } from "@contract/results.dto.ts";
import { formatDay } from "../../lib/dates.ts";

// The chart of 'Ver evolución' (recharts): loaded only when a patient opens it (React.lazy in AnalyteTrend.tsx), so
// no other page downloads the charting library. The table beside it carries the same data for screen readers.

type Point = AnalyteSeriesDto["points"][number];

const outOfRange = (point: Point) => point.flag === "H" || point.flag === "L";

function PointDot(props: DotProps & { payload?: Point }) {
  const { cx, cy, payload } = props;
  if (cx === undefined || cy === undefined || !payload) return null;
  return outOfRange(payload) ? (
    <rect x={cx - 6} y={cy - 6} width={12} height={12} transform={`rotate(45 ${cx} ${cy})`} className="trend-chart__dot--out" />
  ) : (
    <circle cx={cx} cy={cy} r={5} className="trend-chart__dot" />
  );
}

export default function AnalyteChart({ series }: { series: AnalyteSeriesDto }) {
  const data = series.points.map((point) => ({ ...point, label: formatDay(point.date) }));
  const low = series.points.find((point) => point.low !== null)?.low ?? null;
  const high = series.points.find((point) => point.high !== null)?.high ?? null;
  const values = series.points.flatMap((point) => [point.value, point.low ?? point.value, point.high ?? point.value]);
  const span = Math.max(...values) - Math.min(...values) || 1;
  // Ends on round numbers of the data's own scale (10s for glucose, tenths for creatinine): recharts writes the ends as
  // ticks, and 199,625 neither fits the axis at 375 px nor reads as a value.
  const step = 10 ** Math.floor(Math.log10(span));
  const domain = [
    Math.max(0, Math.floor((Math.min(...values) - span * 0.15) / step) * step),
    Math.ceil((Math.max(...values) + span * 0.15) / step) * step,
  ];
  return (
    <div className="trend-chart" aria-hidden="true" data-testid="trend-chart">
      <ResponsiveContainer width="100%" height={240}>
        <LineChart data={data} margin={{ top: 12, right: 16, bottom: 4, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#d6dee8" />
          {low !== null || high !== null ? (
            <ReferenceArea y1={low ?? domain[0]} y2={high ?? domain[1]} className="trend-chart__band" fill="#2e7d32" fillOpacity={0.12} />
          ) : null}
          <XAxis dataKey="label" tick={{ fontSize: 12 }} />
          <YAxis
            domain={domain}
            tick={{ fontSize: 12 }}
            width={48}
            tickFormatter={(value: number) => value.toLocaleString("es-CL", { maximumFractionDigits: 2 })}
          />
          <Tooltip formatter={(value) => [`${Number(value).toLocaleString("es-CL")} ${series.unit}`, series.name]} />
          <Line type="monotone" dataKey="value" stroke="#1d5fb8" strokeWidth={2} dot={<PointDot />} isAnimationActive={false} />
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
