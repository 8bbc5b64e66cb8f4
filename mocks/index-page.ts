import { html, renderPage } from "./html.ts";
import { schedulingCenters } from "./scheduling/scheduling-mock.ts";

export function renderIndexPage(): string {
  const centerRows = schedulingCenters.map(
    (center) =>
      html`<tr>
        <td>${center.name}</td>
        <td><a href="/agenda?externalCenterId=${encodeURIComponent(center.externalCenterId)}">${center.externalCenterId}</a></td>
      </tr>`,
  );
  return renderPage(
    "Simuladores de Portal Pacientes",
    html`<h1>Simuladores de Portal Pacientes</h1>
      <p class="muted">Proveedores externos simulados para desarrollo y pruebas.</p>
      <h2>Correo</h2>
      <p class="card"><a href="/mail">Correos recibidos</a> — todo lo enviado por SMTP a este simulador.</p>
      <h2>Pago con tarjeta</h2>
      <p class="card"><a href="/webpay">Webpay Plus</a> — transacciones recibidas y tarjetas de prueba.</p>
      <h2>Agendamiento de horas</h2>
      <table>
        <thead>
          <tr>
            <th>Centro</th>
            <th>Página de agendamiento</th>
          </tr>
        </thead>
        <tbody>
          ${centerRows}
        </tbody>
      </table>
      <h2>Laboratorio (HL7 FHIR R4) e imagenología (DICOMweb)</h2>
      <p class="card">
        Resultados deterministas para cualquier RUT válido, p. ej. el paciente de demostración:
        <a href="/fhir/Patient?identifier=http://regcivil.cl/Validacion/RUN|12345678-5">Patient</a>,
        <a href="/fhir/DiagnosticReport?subject=Patient/pac-12345678&amp;category=LAB">DiagnosticReport</a>,
        <a href="/dicom-web/studies?PatientID=12345678-5">QIDO-RS studies</a>. Bajo <code>/fallas/caida/…</code> responden 503 y bajo
        <code>/fallas/lenta/…</code> no responden (para probar errores y tiempos de espera).
      </p>`,
  );
}
