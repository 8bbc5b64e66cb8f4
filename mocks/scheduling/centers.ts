export interface SchedulingCenter {
  /** Identifier the portal passes as `externalCenterId`, e.g. "HCS@4". */
  externalCenterId: string;
  name: string;
  /** Street address and city, as the FHIR Location gives them. */
  address: { line: string; city: string };
}

export const schedulingCenters: readonly SchedulingCenter[] = [
  { externalCenterId: "HCS@4", name: "Clínica Sur", address: { line: "Av. Alemania 0251", city: "Temuco" } },
  { externalCenterId: "PMONTT@6", name: "Clínica Puerto Montt", address: { line: "Panamericana 400", city: "Puerto Montt" } },
  { externalCenterId: "PORTADA@1", name: "Clínica Portada", address: { line: "Av. Argentina 1850", city: "Antofagasta" } },
  { externalCenterId: "ANDES@5", name: "Clínica Los Andes", address: { line: "Av. Los Carrera 1058", city: "Los Ángeles" } },
  { externalCenterId: "ATCAMA@2", name: "Clínica Atacama", address: { line: "Los Carrera 1320", city: "Copiapó" } },
  { externalCenterId: "LIRCAY@3", name: "Clínica Lircay", address: { line: "Av. Lircay 2850", city: "Talca" } },
  { externalCenterId: "MMELI@10", name: "Maitenes Melipilla", address: { line: "Ortúzar 540", city: "Melipilla" } },
  { externalCenterId: "MPENA@12", name: "Maitenes Peñaflor", address: { line: "Av. Vicuña Mackenna 3120", city: "Peñaflor" } },
  { externalCenterId: "MTALA@11", name: "Maitenes Talagante", address: { line: "Av. Bernardo O'Higgins 1205", city: "Talagante" } },
];

export function findCenter(externalCenterId: string | undefined): SchedulingCenter | undefined {
  return schedulingCenters.find((center) => center.externalCenterId === externalCenterId);
}
