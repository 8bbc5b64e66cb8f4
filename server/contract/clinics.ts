// The clinic network of SPEC §1: one deployment serves every clinic; the clinic comes from the page's address.
// Shared by the web app and the server. Deployment-specific addresses (scheduling, laboratory, imaging) are
// templates filled from configuration on the server (see server/features/clinics).

export type ClinicKey = "hcs-rcr" | "puertomontt-rcr" | "portada-rcr" | "losandes-rcr" | "atacama-rcr" | "lircay-rcr" | "maitenes";

export interface SchedulingFrame {
  /** Frame key: equals the clinic key, or starts with "maitenes" for the Maitenes sub-sites. */
  key: string;
  title: string;
  /** External center id carried in the frame address (CODE@number). */
  externalCenterId: string;
}

export interface Clinic {
  code: number;
  key: ClinicKey;
  alias: string;
  title: string;
  /** Production hosts: the organisation-specific one and the 'mi.' one. */
  hosts: [string, string];
  logo: string;
  /** External forms linked from the sidebar. */
  helpFormUrl: string;
  surveyFormUrl: string;
  /** Port of the clinic's laboratory results site (SPEC §1: laboratory sites use ports that differ per clinic). */
  labPort: number;
}

// Atacama's alias is not given by the spec ("{product}"); "clinicaatacama" follows the other clinics' pattern.
const clinicRows: Array<Omit<Clinic, "hosts" | "logo" | "helpFormUrl" | "surveyFormUrl">> = [
  { code: 7, key: "hcs-rcr", alias: "clinicasur", title: "Hospital Clínico del Sur", labPort: 8087 },
  { code: 8, key: "puertomontt-rcr", alias: "clinicapuertomontt", title: "Clínica Puerto Montt", labPort: 8088 },
  { code: 9, key: "portada-rcr", alias: "clinicaportada", title: "Clínica Portada", labPort: 8089 },
  { code: 10, key: "losandes-rcr", alias: "clinicalosandes", title: "Clínica Los Andes", labPort: 8090 },
  { code: 11, key: "atacama-rcr", alias: "clinicaatacama", title: "Clínica Atacama", labPort: 8091 },
  { code: 12, key: "lircay-rcr", alias: "clinicalircay", title: "Clínica Lircay", labPort: 8092 },
  // Maitenes gets the reduced patient menu without 'Cuentas hospitalarias': its centres are outpatient sites without
  // hospitalisation, so they issue no hospital bills (flags isMaitenes/hide in menu.ts).
  { code: 13, key: "maitenes", alias: "clinicamaitenes", title: "Clínica Los Maitenes", labPort: 8093 },
];

export const clinics: Clinic[] = clinicRows.map((row) => ({
  ...row,
  hosts: [`portalpacientes.${row.alias}.cl`, `mi.${row.alias}.cl`],
  logo: `/logos/${row.key}.svg`,
  helpFormUrl: `https://www.${row.alias}.cl/portal-pacientes/ayuda`,
  surveyFormUrl: `https://www.${row.alias}.cl/portal-pacientes/encuesta`,
}));

export const schedulingFrames: SchedulingFrame[] = [
  { key: "hcs-rcr", title: "Hospital Clínico del Sur", externalCenterId: "HCS@4" },
  { key: "puertomontt-rcr", title: "Clínica Puerto Montt", externalCenterId: "PMONTT@6" },
  { key: "portada-rcr", title: "Clínica Portada", externalCenterId: "PORTADA@1" },
  { key: "losandes-rcr", title: "Clínica Los Andes", externalCenterId: "ANDES@5" },
  { key: "atacama-rcr", title: "Clínica Atacama", externalCenterId: "ATCAMA@2" },
  { key: "lircay-rcr", title: "Clínica Lircay", externalCenterId: "LIRCAY@3" },
  { key: "maitenes-melipilla", title: "maitenes-melipilla", externalCenterId: "MMELI@10" },
  { key: "maitenes-penaflor", title: "maitenes-peñaflor", externalCenterId: "MPENA@12" },
  { key: "maitenes-talagante", title: "maitenes-talagante", externalCenterId: "MTALA@11" },
];

export const DEFAULT_CLINIC_KEY: ClinicKey = "maitenes";
const TITLE_FALLBACK_KEY: ClinicKey = "hcs-rcr";
/** Clinic used for the in-session password change call (SPEC §9). */
export const PASSWORD_CHANGE_CLINIC: ClinicKey = "hcs-rcr";

export function clinicByKey(key: string | null | undefined): Clinic | undefined {
  return clinics.find((clinic) => clinic.key === key);
}

/** Dev hosts: `<alias>.localhost` (any port), e.g. http://clinicasur.localhost:4200. */
export function devHost(clinic: Clinic): string {
  return `${clinic.alias}.localhost`;
}

/** Every host that selects the clinic: its two production patterns and its dev host. */
export function clinicHosts(clinic: Clinic): string[] {
  return [...clinic.hosts, devHost(clinic)];
}

/** Host name of an address given as a full URL ("https://mi.clinicasur.cl/login") or a bare host ("mi.clinicasur.cl:443"). */
function hostNameOf(address: string): string | null {
  const trimmed = address.trim().toLowerCase();
  if (!trimmed) return null;
  try {
    return new URL(/^[a-z][a-z0-9+.-]*:\/\//.test(trimmed) ? trimmed : `http://${trimmed}`).hostname;
  } catch {
    return null;
  }
}

/**
 * SPEC §1 clinic selection: the clinic whose host the address contains; localhost:4200 (and any other address) maps
 * to maitenes. "Contains" is read on the address's host name only (the host itself or a sub-domain of it), so a
 * clinic host written in the path or query of another site's address does not select that clinic.
 */
export function resolveClinic(address: string): Clinic {
  const hostName = hostNameOf(address);
  const match = hostName
    ? clinics.find((clinic) => clinicHosts(clinic).some((host) => hostName === host || hostName.endsWith(`.${host}`)))
    : undefined;
  return match ?? clinicByKey(DEFAULT_CLINIC_KEY)!;
}

/** Title of the clinic with that key, falling back to the South clinic's title. */
export function clinicTitle(key: string | null | undefined): string {
  return (clinicByKey(key) ?? clinicByKey(TITLE_FALLBACK_KEY)!).title;
}

/** SPEC §1: Maitenes uses every frame whose key starts with "maitenes"; the other clinics the exact key. */
export function framesForClinic(key: ClinicKey): SchedulingFrame[] {
  return key === "maitenes"
    ? schedulingFrames.filter((frame) => frame.key.startsWith("maitenes"))
    : schedulingFrames.filter((frame) => frame.key === key);
}

const capitaliseWords = (text: string) =>
  text
    .toLocaleLowerCase("es-CL")
    .replace(/(^|[\s-])(\p{L})/gu, (_match, before: string, letter: string) => before + letter.toLocaleUpperCase("es-CL"));

/**
 * SPEC §2 Scheduling tab title. Maitenes: the part after the first hyphen with each word capitalised
 * ("maitenes-peñaflor" → "Peñaflor"); every other clinic: the given title.
 */
export function schedulingTabTitle(clinicKey: string, frameTitle: string): string {
  if (clinicKey !== "maitenes") return frameTitle;
  const hyphen = frameTitle.indexOf("-");
  const rest = (hyphen === -1 ? frameTitle : frameTitle.slice(hyphen + 1)).trim();
  return capitaliseWords(rest);
}
