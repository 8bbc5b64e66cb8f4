import { Fragment, useCallback, useState, type ReactNode } from "react";
import type { ImagingOrderDto } from "@contract/results.dto.ts";
import { useActionFailures } from "../../components/ui/ActionFailure.tsx";
import { Button } from "../../components/ui/Button.tsx";
import { Card } from "../../components/ui/Card.tsx";
import { DateRangeFilter, type DayRange } from "../../components/ui/DateRangeFilter.tsx";
import { LoadFailure } from "../../components/ui/LoadFailure.tsx";
import { PageTitle } from "../../components/ui/PageTitle.tsx";
import { RefreshButton } from "../../components/ui/RefreshButton.tsx";
import "../../components/ui/results.css";
import { openReport, RESULTS_ERROR_MESSAGE, useMailReport } from "../../lib/results.ts";
import { formatDay, lastTwelveMonths } from "../../lib/dates.ts";
import { useIsMobile } from "../../lib/use-media-query.ts";
import { useImagingStudies, useStudyLinks } from "./api/imaging.api.ts";
import { ImagingViewer } from "./ImagingViewer.tsx";

const columns = ["Fecha", "Estudio", "Visor", "Informe", "Enviar al correo"] as const;

interface StudyActions {
  openViewer(study: ImagingOrderDto): void;
  openStudyReport(study: ImagingOrderDto): void;
  mailStudyReport(study: ImagingOrderDto): void;
  /** The study's failed action, told beside its buttons, or null. */
  failureOf(study: ImagingOrderDto): ReactNode;
}

function studyButtons({ study, actions }: { study: ImagingOrderDto; actions: StudyActions }) {
  return {
    viewer: (
      <Button variant="secondary" onClick={() => actions.openViewer(study)}>
        Ver imágenes<span className="visually-hidden"> del examen {study.accessionNumber}</span>
      </Button>
    ),
    report: (
      <Button variant="secondary" disabled={!study.hasReport} onClick={() => actions.openStudyReport(study)}>
        {study.hasReport ? "Ver informe" : "Sin informe"}
        <span className="visually-hidden"> del examen {study.accessionNumber}</span>
      </Button>
    ),
    mail: (
      <Button variant="secondary" disabled={!study.hasReport} onClick={() => actions.mailStudyReport(study)}>
        Enviar<span className="visually-hidden"> al correo el informe del examen {study.accessionNumber}</span>
      </Button>
    ),
  };
}

const studyTitle = (study: ImagingOrderDto) => study.description || study.modality;

function ImagingTable({ studies, actions }: { studies: ImagingOrderDto[]; actions: StudyActions }) {
  return (
    <table className="data-table results-table" aria-label="Exámenes de imagenología">
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column} scope="col">
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {studies.map((study) => {
          const buttons = studyButtons({ study, actions });
          const failure = actions.failureOf(study);
          return (
            <Fragment key={study.accessionNumber}>
              <tr>
                <td>{formatDay(study.date)}</td>
                <td>
                  {studyTitle(study)}
                  <div className="result-card__label">
                    {study.modality} · N° {study.accessionNumber}
                  </div>
                </td>
                <td>{buttons.viewer}</td>
                <td>{buttons.report}</td>
                <td>{buttons.mail}</td>
              </tr>
              {failure ? (
                <tr className="results-table__detail">
                  <td colSpan={columns.length}>{failure}</td>
                </tr>
              ) : null}
            </Fragment>
          );
        })}
      </tbody>
    </table>
  );
}

function ImagingCards({ studies, actions }: { studies: ImagingOrderDto[]; actions: StudyActions }) {
  return (
    <div className="result-cards" aria-label="Exámenes de imagenología">
      {studies.map((study) => {
        const buttons = studyButtons({ study, actions });
        return (
          <article key={study.accessionNumber} className="result-card">
            <div className="result-card__row">
              <strong>{formatDay(study.date)}</strong>
              <span className="result-card__label">{study.modality}</span>
            </div>
            <div>
              {studyTitle(study)}
              <div className="result-card__label">N° {study.accessionNumber}</div>
            </div>
            <div className="result-card__actions">
              {buttons.viewer}
              {buttons.report}
              {buttons.mail}
            </div>
            {actions.failureOf(study)}
          </article>
        );
      })}
    </div>
  );
}

/**
 * /dashboard/imaging (SPEC §2 'Exámenes de imagenología'): the same date filter, the studies as a table (cards under
 * 1024 px), the viewer in a modal frame (with the PC/laptop notice on small screens), the report PDF and 'Enviar al correo'.
 */
export default function ImagingPage() {
  const links = useStudyLinks();
  const isMobile = useIsMobile();
  const mail = useMailReport();
  const [range, setRange] = useState<DayRange>(() => lastTwelveMonths());
  const [viewer, setViewer] = useState<{ url: string; title: string } | null>(null);
  const closeViewer = useCallback(() => setViewer(null), []);
  const { query: studies, refresh } = useImagingStudies(range);
  // 'Buscar' on the same dates asks the server again; 'Actualizar' also skips its copy of the PACS's answer.
  const search = (next: DayRange) => (next.from === range.from && next.to === range.to ? void studies.refetch() : setRange(next));

  // SPEC §5: the list is also filtered by date on the client, within the range asked for.
  const rows = (studies.data ?? []).filter((study) => study.date >= range.from && study.date <= range.to);
  const reportLink = (study: ImagingOrderDto) => links.reportUrl(study.accessionNumber);

  const failures = useActionFailures(RESULTS_ERROR_MESSAGE);
  const actions: StudyActions = {
    openViewer: (study) =>
      void failures.attempt(study.accessionNumber, `No se pudo abrir el visor del examen ${study.accessionNumber}.`, async () => {
        const url = await links.viewerUrl(study.accessionNumber);
        if (url) setViewer({ url, title: studyTitle(study) });
        return url !== null;
      }),
    openStudyReport: (study) => {
      // The tab opens now, inside the click, so the browser does not block it; the address follows once known.
      const tab = window.open("about:blank", "_blank");
      void failures.attempt(study.accessionNumber, `No se pudo abrir el informe del examen ${study.accessionNumber}.`, async () => {
        const link = await reportLink(study);
        if (link && tab) tab.location.href = link;
        else if (link) openReport(link);
        else tab?.close();
        return link !== null;
      });
    },
    mailStudyReport: (study) =>
      void failures.attempt(
        study.accessionNumber,
        `No se pudo enviar a su correo el informe del examen ${study.accessionNumber}.`,
        async () => {
          const link = await reportLink(study);
          return link !== null && (await mail(link));
        },
      ),
    failureOf: (study) => failures.messageFor(study.accessionNumber),
  };

  return (
    <div className="results-page">
      <PageTitle title="Exámenes de imagenología" subtitle="Resultados de imagenología" />
      <Card>
        <DateRangeFilter initial={range} onSearch={search} />
        <RefreshButton key={`${range.from}/${range.to}`} onRefresh={refresh} busy={studies.isFetching} />
        {studies.isError ? (
          <LoadFailure
            service="imagenología"
            toast={RESULTS_ERROR_MESSAGE}
            onRetry={() => void studies.refetch()}
            retrying={studies.isFetching}
          />
        ) : studies.isPending ? (
          // Holds the list's room while the PACS answers, so the legend below does not jump down (issue 26). Not a
          // live region: arriving here, a screen reader says the screen's name and nothing else (issue 29).
          <p className="results-empty results-loading">Cargando exámenes de imagenología…</p>
        ) : isMobile ? (
          <ImagingCards studies={rows} actions={actions} />
        ) : (
          <ImagingTable studies={rows} actions={actions} />
        )}
        {studies.isSuccess && rows.length === 0 ? (
          <p className="results-empty">No hay exámenes de imagenología en el rango seleccionado.</p>
        ) : null}
        <div className="results-legend" aria-label="Leyenda">
          <span className="results-legend__note">
            Sin informe: el informe del estudio aún no está disponible; aparecerá aquí cuando la clínica lo emita.
          </span>
        </div>
      </Card>
      {viewer ? <ImagingViewer url={viewer.url} title={viewer.title} showMobileNotice={isMobile} onClose={closeViewer} /> : null}
    </div>
  );
}
