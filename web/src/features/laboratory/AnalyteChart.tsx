import { CartesianGrid, Line, LineChart, ReferenceArea, ResponsiveContainer, Tooltip, XAxis, YAxis, type DotProps } from "recharts";
import type { AnalyteSeriesDto } from "@contract/results.dto.ts";
import { formatDay } from "../../lib/dates.ts";

// The chart of 'Ver evolución' (recharts): loaded only when a patient opens it (React.lazy in AnalyteTrend.tsx), so
// no other page downloads the charting library. The table beside it carries the same data for screen readers.
// A time axis (issue 45 §7): each point sits at its day, so a year between two results looks like a year; the ticks
// read dd-mm-aa, the Y axis names the unit, and every text is 14 px in the page's text colour, readable at arm's length.

type Point = AnalyteSeriesDto["points"][number];
type Plotted = Point & { time: number };

const DAY_MS = 86_400_000;
const AXIS_TEXT = { fontSize: 14, fill: "#1f2933" };
const outOfRange = (point: Point) => point.flag === "H" || point.flag === "L";
const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10);
/** dd-mm-aa: short enough for four labels on a phone. */
const shortDay = (time: number) => formatDay(dayOf(time)).replace(/-\d{2}(\d{2})$/, "-$1");

function PointDot(props: DotProps & { payload?: Point }) {
  const { cx, cy, payload } = props;
  if (cx === undefined || cy === undefined || !payload) return null;
  return outOfRange(payload) ? (
    <rect x={cx - 6} y={cy - 6} width={12} height={12} transform={`rotate(45 ${cx} ${cy})`} className="trend-chart__dot--out" />
  ) : (
    <circle cx={cx} cy={cy} r={5} className="trend-chart__dot" />
  );
}

/** A phone: two dates fit under the chart (the first and the last), four on a wider screen. */
const narrow = () => typeof window !== "undefined" && window.matchMedia("(max-width: 599px)").matches;

/** Evenly spaced days from the first result to the last (the ends included), each a whole day. */
function timeTicks(first: number, last: number, count: number): number[] {
  if (last === first) return [first];
  return Array.from({ length: count }, (_, i) => Math.round((first + ((last - first) * i) / (count - 1)) / DAY_MS) * DAY_MS);
}

function ChartTooltip({ active, payload, unit }: { active?: boolean; payload?: Array<{ payload: Plotted }>; unit: string }) {
  const point = active ? payload?.[0]?.payload : undefined;
  if (!point) return null;
  return (
    <div className="trend-chart__tooltip">
      <div>{formatDay(point.date)}</div>
      <strong>
        {point.value.toLocaleString("es-CL")} {unit}
      </strong>
    </div>
  );
}

export default function AnalyteChart({ series }: { series: AnalyteSeriesDto }) {
  const data: Plotted[] = series.points
    .map((point) => ({ ...point, time: Date.parse(`${point.date}T00:00:00Z`) }))
    .sort((a, b) => a.time - b.time);
  const first = data[0]?.time ?? 0;
  const last = data.at(-1)?.time ?? 0;
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
      <ResponsiveContainer width="100%" height={260}>
        <LineChart data={data} margin={{ top: 12, right: 24, bottom: 4, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#d6dee8" />
          {low !== null || high !== null ? (
            <ReferenceArea y1={low ?? domain[0]} y2={high ?? domain[1]} className="trend-chart__band" fill="#2e7d32" fillOpacity={0.12} />
          ) : null}
          <XAxis
            dataKey="time"
            type="number"
            scale="time"
            domain={[first, last]}
            ticks={timeTicks(first, last, narrow() ? 2 : 4)}
            interval={0}
            tickFormatter={shortDay}
            tick={AXIS_TEXT}
            padding={{ left: 12, right: 12 }}
            height={32}
          />
          <YAxis
            domain={domain}
            tick={AXIS_TEXT}
            width={56}
            tickFormatter={(value: number) => value.toLocaleString("es-CL", { maximumFractionDigits: 2 })}
            label={{ value: series.unit, angle: -90, position: "insideLeft", style: { ...AXIS_TEXT, textAnchor: "middle" } }}
          />
          <Tooltip content={<ChartTooltip unit={series.unit} />} allowEscapeViewBox={{ x: false, y: false }} />
          <Line type="linear" dataKey="value" stroke="#1d5fb8" strokeWidth={2} dot={<PointDot />} isAnimationActive={false} />
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
