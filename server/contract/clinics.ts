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

export function clinicByCode(code: number): Clinic | undefined {
  return clinics.find((clinic) => clinic.code === code);
}

/** Dev hosts: `<alias>.localhost` (any port). */
export function devHost(clinic: Clinic): string {
  return `${clinic.alias}.localhost`;
}

/**
 * SPEC §1 clinic selection: the first clinic one of whose hosts the address contains; localhost:4200 maps to
 * maitenes; anything else is maitenes too.
 */
export function resolveClinic(address: string): Clinic {
  const lower = address.toLowerCase();
  const match = clinics.find((clinic) => [...clinic.hosts, devHost(clinic)].some((host) => lower.includes(host)));
  if (match) return match;
  return clinicByKey(DEFAULT_CLINIC_KEY)!;
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
