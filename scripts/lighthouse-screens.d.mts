export interface AuditedScreen {
  name: string;
  path: string;
}
export const patientScreens: AuditedScreen[];
export const staffScreens: AuditedScreen[];
