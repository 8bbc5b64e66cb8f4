import { ExternalLinkIcon, ImagingIcon, LaboratoryIcon } from "../../components/ui/icons.tsx";
import { useLoadedClinicSettings } from "../../lib/clinic-settings.ts";

/**
 * The result sites that need no portal login (SPEC §1, §2 Patient login): the clinic's own laboratory site (results
 * by order number) and the imaging login page shared by every clinic. Both open in a new tab.
 */
export default function LoginExternalLinks() {
  const settings = useLoadedClinicSettings();
  if (!settings) return null;
  const { labSiteUrl, imagingLoginUrl } = settings;
  return (
    <nav className="external-links" aria-label="Resultados sin iniciar sesión">
      <p className="external-links__title">Consultar resultados sin iniciar sesión</p>
      <a className="external-links__item" href={labSiteUrl} target="_blank" rel="noopener noreferrer">
        <LaboratoryIcon className="external-links__icon" />
        <span>
          <strong>Ver exámenes de laboratorio</strong>
          <small>Ingrese el número de orden que aparece en su comprobante de atención.</small>
        </span>
        <ExternalLinkIcon size={16} />
      </a>
      <a className="external-links__item" href={imagingLoginUrl} target="_blank" rel="noopener noreferrer">
        <ImagingIcon className="external-links__icon" />
        <span>
          <strong>Ver exámenes de imagenología</strong>
          <small>Ingrese con la cuenta de imagenología que le entregó la clínica.</small>
        </span>
        <ExternalLinkIcon size={16} />
      </a>
    </nav>
  );
}
