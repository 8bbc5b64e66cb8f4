export interface SchedulingCenter {
  /** Identifier the portal passes as `externalCenterId`, e.g. "HCS@4". */
  externalCenterId: string;
  name: string;
}

export const schedulingCenters: readonly SchedulingCenter[] = [
  { externalCenterId: "HCS@4", name: "Clínica Sur" },
  { externalCenterId: "PMONTT@6", name: "Clínica Puerto Montt" },
  { externalCenterId: "PORTADA@1", name: "Clínica Portada" },
  { externalCenterId: "ANDES@5", name: "Clínica Los Andes" },
  { externalCenterId: "ATCAMA@2", name: "Clínica Atacama" },
  { externalCenterId: "LIRCAY@3", name: "Clínica Lircay" },
  { externalCenterId: "MMELI@10", name: "Maitenes Melipilla" },
  { externalCenterId: "MPENA@12", name: "Maitenes Peñaflor" },
  { externalCenterId: "MTALA@11", name: "Maitenes Talagante" },
];

export function findCenter(externalCenterId: string | undefined): SchedulingCenter | undefined {
  return schedulingCenters.find((center) => center.externalCenterId === externalCenterId);
}
