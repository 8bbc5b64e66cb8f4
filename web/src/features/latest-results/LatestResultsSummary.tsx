import { Link } from "react-router";
import { formatDay } from "../../lib/dates.ts";
import { useLatestResults } from "./api/latest-results.api.ts";
import "./latest-results.css";

/** A results page the summary can link to (only those the clinic's menu shows). */
export interface ResultsPage {
  service: "laboratory" | "imaging";
  path: string;
}

const names = {
  laboratory: { title: "Laboratorio", service: "laboratorio", link: "Ver exámenes de laboratorio" },
  imaging: { title: "Imagenología", service: "imagenología", link: "Ver exámenes de imagenología" },
} as const;

/**
 * The newest laboratory and imaging results, below what is pending at the top of 'Mi cuenta' (issue 33, like
 * MyChart's home): the day of the newest result of the last 12 months and a link to see them. A service that is not
 * answering says so in its line; a summary that could not be loaded at all is left out.
 */
export function LatestResultsSummary({ pages }: { pages: ResultsPage[] }) {
  const latest = useLatestResults();
  if (pages.length === 0) return null;
  // While asking, the summary already takes its room, so the sections under it do not jump down (issue 26). Its
  // waiting text is not a live region: arriving at 'Mi cuenta', a screen reader says the screen's name and nothing
  // else (issue 29's Orca review).
  if (latest.isPending)
    return (
      <section className="summary-card latest-results latest-results--loading" aria-labelledby="latest-results-title">
        <h2 id="latest-results-title" className="summary-card__title latest-results__title">
          Resultados recientes
        </h2>
        <p>Consultando sus resultados…</p>
      </section>
    );
  if (!latest.data) return null;
  return (
    <section className="summary-card latest-results" aria-labelledby="latest-results-title">
      <h2 id="latest-results-title" className="summary-card__title latest-results__title">
        Resultados recientes
      </h2>
      <ul className="latest-results__list">
        {pages.map(({ service, path }) => {
          const result = latest.data[service];
          const name = names[service];
          return (
            <li key={service}>
              <strong>{name.title}:</strong>{" "}
              {!result.available
                ? `el servicio de ${name.service} no está respondiendo; sus resultados están a salvo.`
                : result.newest
                  ? `último resultado del ${formatDay(result.newest)}.`
                  : "sin resultados en los últimos 12 meses."}{" "}
              <Link to={path}>{name.link}</Link>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
