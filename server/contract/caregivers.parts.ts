// The zod-free part of the caregivers contract (caregivers.ts re-exports it): the header every tRPC call of the web app
// sends, the login page's too, the parts 'Ver como:' names on top of every patient page, and the relationships 'Mis
// cuidadores' names on 'Mis datos' (issue 46: that page loads zod only when one of its forms is used). Imported from
// caregivers.ts, they put zod into the login's first load (issue 26: 110 KB against the 100 KB budget) and into every
// signed-in page, forms or not.

/** The request header naming the patient a caregiver acts for (REST and tRPC alike); absent = the caller themself. */
export const ACTING_FOR_HEADER = "X-Actuar-Por";

export const CAREGIVER_PARTS = ["agendamiento", "resultados", "cuentas-pagos"] as const;
export type CaregiverPart = (typeof CAREGIVER_PARTS)[number];
export const caregiverPartLabels: Record<CaregiverPart, string> = {
  agendamiento: "Agendamiento",
  resultados: "Resultados",
  "cuentas-pagos": "Cuentas y pagos",
};

export const RELATIONSHIPS = ["madre", "padre", "tutor-legal", "otro"] as const;
export type Relationship = (typeof RELATIONSHIPS)[number];
export const relationshipLabels: Record<Relationship, string> = {
  madre: "Madre",
  padre: "Padre",
  "tutor-legal": "Tutor legal",
  // Said of a woman or a man alike ('María (Otro)' read wrong; issue 45).
  otro: "Otra relación",
};
