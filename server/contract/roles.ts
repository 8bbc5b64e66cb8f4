/** Role / portal type codes of SPEC §1 and §6. */
export const Role = { admin: 0, executive: 1, patient: 2 } as const;
export type RoleType = (typeof Role)[keyof typeof Role];

export const roleLabels: Record<RoleType, string> = {
  0: "Administrador",
  1: "Ejecutivo",
  2: "Paciente",
};

export function isStaffRole(roleType: number): boolean {
  return roleType === Role.admin || roleType === Role.executive;
}

/** Portal type stored at login: patients get 2, staff get their role type (SPEC §4). */
export function portalTypeFor(roleType: number): string {
  return isStaffRole(roleType) ? String(roleType) : String(Role.patient);
}
