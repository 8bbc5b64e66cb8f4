// The audit trail in Spanish (issue 33, notes/ux-writing.md "Voice"): staff read 'Inicio de sesión de paciente', not
// 'login.patient', and 'Pago', not 'PaymentTransaction'. The filter and the CSV keep the codes (the API's values); a
// code without a label here (an action added later) is shown as is rather than hidden.

const actionLabels: Record<string, string> = {
  "login.patient": "Inicio de sesión de paciente",
  "login.staff": "Inicio de sesión del personal",
  logout: "Cierre de sesión",
  "password.reset-request": "Solicitud de recuperación de contraseña",
  "password.reset": "Recuperación de contraseña",
  "account.update": "Cambio de datos personales",
  "account.password-change": "Cambio de contraseña",
  "terms.accept": "Aceptación de términos y condiciones",
  "user.list": "Consulta de usuarios",
  "user.read": "Lectura de un usuario",
  "user.update": "Modificación de usuario",
  "user.create": "Creación de cuenta",
  "user.password-reset": "Cambio de contraseña por el personal",
  "user.password-reset-link": "Envío de enlace para restablecer contraseña",
  "user.privileges.read": "Lectura de privilegios",
  "user.privileges.update": "Cambio de privilegios",
  "user.create.cli": "Creación de cuenta por comando",
  "user.reset.cli": "Restablecimiento de cuenta por comando",
  "clinic.list": "Consulta de clínicas",
  "lab.orders.list": "Consulta de órdenes de laboratorio",
  "lab.order.read": "Lectura de una orden de laboratorio",
  "imaging.studies.list": "Consulta de estudios de imagenología",
  "imaging.viewer.open": "Apertura del visor de imágenes",
  "imaging.report.link": "Enlace a informe de imagenología",
  "results.report.read": "Lectura de informe",
  "results.report.mail": "Envío de informe por correo",
  "bill.list": "Consulta de cuentas hospitalarias",
  "bill.read": "Lectura de una cuenta hospitalaria",
  "bill.create": "Creación de cuenta hospitalaria",
  "bill.update": "Modificación de cuenta hospitalaria",
  "bill.delete": "Eliminación de cuenta hospitalaria",
  "bill.files.list": "Consulta de documentos adjuntos",
  "bill.files.upload": "Carga de documentos adjuntos",
  "bill.file.delete": "Eliminación de documento adjunto",
  "bill.file.link": "Enlace de descarga de documento",
  "bill.file.download": "Descarga de documento",
  "bill.status": "Consulta de estado de cuenta",
  "payment.start": "Inicio de pago",
  "payment.commit": "Confirmación de pago",
  "payment.timeout": "Pago no completado a tiempo",
  "payment.reconcile": "Conciliación de pago",
  "payment.status": "Consulta de estado de pago",
  "caregiver.list": "Consulta de cuidadores",
  "caregiver.create": "Creación de vínculo de cuidador",
  "caregiver.renew": "Renovación de vínculo de cuidador",
  "caregiver.revoke": "Revocación de vínculo de cuidador",
  "scheduling.open": "Apertura de agendamiento para una persona a cargo",
  "audit.list": "Consulta de auditoría",
  "audit.export": "Descarga de auditoría",
};

const resourceLabels: Record<string, string> = {
  user: "Usuario",
  bill: "Cuenta hospitalaria",
  "bill-file": "Documento adjunto",
  session: "Sesión",
  terms: "Términos y condiciones",
  audit: "Auditoría",
  LabOrder: "Orden de laboratorio",
  ImagingStudy: "Estudio de imagenología",
  PaymentTransaction: "Pago",
  CaregiverLink: "Vínculo de cuidador",
  clinic: "Clínica",
  account: "Datos personales",
  password: "Contraseña",
};

/** The action as staff read it. */
export const auditActionLabel = (action: string): string => actionLabels[action] ?? action;

/** The kind of record as staff read it. */
export const auditResourceLabel = (resource: string): string => resourceLabels[resource] ?? resource;
