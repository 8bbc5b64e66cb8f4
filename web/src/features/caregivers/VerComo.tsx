import { useEffect, type ReactNode } from "react";
import { caregiverPartLabels, type CaregiverPart } from "@contract/caregivers.parts.ts";
import { Card } from "../../components/ui/Card.tsx";
import { useActingFor } from "../../lib/acting-for.ts";
import { useSessionUser } from "../../lib/session.ts";
import { useMyCaregiverLinks, useSchedulingPatient, useSwitchActingFor } from "./api/caregivers.api.ts";
import "./caregivers.css";

// 'Ver como:' (issue 30): a caregiver switches the patient area between themself and each person in their care.

const SELF = "self";

/** The selector at the top of the patient area; shown only to patients with at least one live link. */
export function VerComoBar() {
  const links = useMyCaregiverLinks();
  const acting = useActingFor();
  const { user } = useSessionUser();
  const switchTo = useSwitchActingFor();
  const dependents = links.data?.dependents ?? [];

  // A link that ended (revoked, expired) since it was chosen: back to the patient's own data.
  const stillLinked = !acting || dependents.some((link) => link.dependent.id === acting.id);
  useEffect(() => {
    if (links.data && !stillLinked) switchTo(null);
  }, [links.data, stillLinked, switchTo]);

  if (dependents.length === 0) return null;
  function choose(value: string) {
    const link = dependents.find((candidate) => String(candidate.dependent.id) === value);
    switchTo(link ? { id: link.dependent.id, name: link.dependent.name, rut: link.dependent.rut } : null);
  }
  return (
    <div className="ver-como" role="region" aria-label="Ver como">
      <label className="ver-como__label" htmlFor="ver-como">
        Ver como:
      </label>
      <select
        id="ver-como"
        className="ver-como__select field__input select-input"
        value={acting ? String(acting.id) : SELF}
        onChange={(event) => choose(event.target.value)}
      >
        <option value={SELF}>{`${user?.name?.trim() || "Mis datos"} (usted)`}</option>
        {dependents.map((link) => (
          <option key={link.id} value={String(link.dependent.id)}>
            {link.dependent.name}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The part of the portal each patient page belongs to ('Mi cuenta' and the rest are always the patient's own). */
export function partOfPath(pathname: string): CaregiverPart | null {
  if (pathname.startsWith("/dashboard/scheduling") || pathname.startsWith("/dashboard/my-appointments")) return "agendamiento";
  if (pathname.startsWith("/dashboard/laboratory") || pathname.startsWith("/dashboard/imaging")) return "resultados";
  if (pathname.startsWith("/dashboard/my-bills")) return "cuentas-pagos";
  return null;
}

/**
 * The page, when the patient acts for themself or the link covers the page's part; otherwise why not. Pages outside
 * the three parts ('Mi cuenta') say that they show the caregiver's own account.
 */
export function ActingForGate({ pathname, children }: { pathname: string; children: ReactNode }) {
  const acting = useActingFor();
  const links = useMyCaregiverLinks(acting !== null);
  const part = partOfPath(pathname);
  const scheduling = useSchedulingPatient(acting !== null && part === "agendamiento");
  if (!acting) return <>{children}</>;
  if (!part)
    return (
      <>
        <p className="acting-notice">Esta página muestra siempre su propia cuenta, no la de {acting.name}.</p>
        {children}
      </>
    );
  const link = links.data?.dependents.find((candidate) => candidate.dependent.id === acting.id);
  if (!links.data) return null;
  // The scheduling page is opened through the server (audited, link checked again); a refusal there is a refusal here.
  if (!link || !link.parts.includes(part) || scheduling.isError)
    return (
      <Card>
        <p role="alert">
          Su vínculo con {acting.name} no incluye {caregiverPartLabels[part].toLowerCase()}. Si lo necesita, pídalo en la clínica.
        </p>
      </Card>
    );
  return (
    <>
      <p className="acting-notice">
        {part === "agendamiento" ? "Reservando hora para" : "Datos de"} <strong>{acting.name}</strong>, RUT {acting.rut}
      </p>
      {children}
    </>
  );
}
