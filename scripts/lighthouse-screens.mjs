// The signed-in screens npm run test:lighthouse audits, each as a cold load (HTTP cache emptied, session kept): every
// page of the patient's area (issue 46 §1: every patient screen; tests/api/lighthouse-screens.test.ts compares this
// list with the router's) and the staff's two busiest.
export const patientScreens = [
  { name: "Mis datos (Mi cuenta)", path: "/dashboard/account-settings" },
  { name: "Agendamiento", path: "/dashboard/scheduling" },
  { name: "Mis citas", path: "/dashboard/my-appointments" },
  { name: "Laboratorio", path: "/dashboard/laboratory" },
  { name: "Imagenología", path: "/dashboard/imaging" },
  { name: "Cuentas hospitalarias", path: "/dashboard/my-bills" },
];
export const staffScreens = [
  { name: "Personal: usuarios y pacientes", path: "/admin/admin-users" },
  { name: "Personal: cuentas hospitalarias", path: "/admin/admin-bills" },
];
