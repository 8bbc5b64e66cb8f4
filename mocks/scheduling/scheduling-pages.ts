import { html, renderPage } from "../html.ts";
import type { Booking } from "./bookings.ts";
import type { SchedulingCenter } from "./centers.ts";
import { formatRut } from "./rut.ts";
import { formatSlotDate, type Slot } from "./slots.ts";

export interface AgendaPageData {
  center: SchedulingCenter;
  dates: string[];
  freeSlots: Slot[];
  patient: { rut?: string; email?: string };
}

function agendaUrl(center: SchedulingCenter): string {
  return `/agenda?externalCenterId=${encodeURIComponent(center.externalCenterId)}`;
}

function renderDay(date: string, slots: Slot[]) {
  const dateLabel = formatSlotDate(date);
  if (slots.length === 0) {
    return html`<h2>${dateLabel}</h2>
      <p class="card muted">Sin horas disponibles.</p>`;
  }
  const rows = slots.map(
    (slot) =>
      html`<tr>
        <td><strong>${slot.time}</strong></td>
        <td>${slot.specialty}</td>
        <td>${slot.doctor}</td>
        <td>
          <button type="submit" name="slotId" value="${slot.id}" aria-label="Reservar ${dateLabel} a las ${slot.time}">Reservar</button>
        </td>
      </tr>`,
  );
  return html`<h2>${dateLabel}</h2>
    <table>
      <thead>
        <tr>
          <th>Hora</th>
          <th>Especialidad</th>
          <th>Profesional</th>
          <th></th>
        </tr>
      </thead>
      <tbody>
        ${rows}
      </tbody>
    </table>`;
}

export function renderAgendaPage({ center, dates, freeSlots, patient }: AgendaPageData): string {
  const days = dates.map((date) =>
    renderDay(
      date,
      freeSlots.filter((slot) => slot.date === date),
    ),
  );
  return renderPage(
    `Reserva de horas – ${center.name}`,
    html`<h1>Reserva de horas – ${center.name}</h1>
      <p class="muted">Centro ${center.externalCenterId}</p>
      <form method="post" action="/agenda/reservar">
        <input type="hidden" name="externalCenterId" value="${center.externalCenterId}" />
        <fieldset class="card">
          <legend>Datos del paciente</legend>
          <label
            >RUT
            <input name="rut" required autocomplete="off" placeholder="12.345.678-5" value="${patient.rut ?? ""}" />
          </label>
          <label
            >Correo electrónico
            <input name="email" type="email" required autocomplete="email" placeholder="nombre@correo.cl" value="${patient.email ?? ""}" />
          </label>
        </fieldset>
        <p class="muted">Horas disponibles para los próximos ${dates.length} días. Elija una y presione «Reservar».</p>
        ${days}
      </form>`,
  );
}

export function renderBookingConfirmedPage(center: SchedulingCenter, booking: Booking): string {
  const { slot } = booking;
  return renderPage(
    "Hora reservada",
    html`<h1>Hora reservada</h1>
      <div class="card">
        <p>Su hora en <strong>${center.name}</strong> quedó reservada.</p>
        <table>
          <tr>
            <th>Código de reserva</th>
            <td><strong>${booking.code}</strong></td>
          </tr>
          <tr>
            <th>Centro</th>
            <td>${center.name} (${center.externalCenterId})</td>
          </tr>
          <tr>
            <th>Fecha</th>
            <td>${formatSlotDate(slot.date)}</td>
          </tr>
          <tr>
            <th>Hora</th>
            <td>${slot.time}</td>
          </tr>
          <tr>
            <th>Especialidad</th>
            <td>${slot.specialty}</td>
          </tr>
          <tr>
            <th>Profesional</th>
            <td>${slot.doctor}</td>
          </tr>
          <tr>
            <th>RUT del paciente</th>
            <td>${formatRut(booking.rut)}</td>
          </tr>
          <tr>
            <th>Correo electrónico</th>
            <td>${booking.email}</td>
          </tr>
        </table>
      </div>
      <p><a href="${agendaUrl(center)}">Volver a la agenda</a></p>`,
  );
}

export function renderCenterNotFoundPage(externalCenterId: string | undefined): string {
  const detail = externalCenterId
    ? html`No existe un centro con el identificador «${externalCenterId}».`
    : html`Falta el parámetro externalCenterId.`;
  return renderPage(
    "Centro no encontrado",
    html`<h1>Centro no encontrado</h1>
      <p class="card error">${detail}</p>`,
  );
}

export function renderBookingErrorPage(center: SchedulingCenter | undefined, errors: string[]): string {
  const backLink = center ? html`<p><a href="${agendaUrl(center)}">Volver a la agenda</a></p>` : html``;
  return renderPage(
    "No se pudo reservar la hora",
    html`<h1>No se pudo reservar la hora</h1>
      <div class="card error">
        <ul>
          ${errors.map((error) => html`<li>${error}</li>`)}
        </ul>
      </div>
      ${backLink}`,
  );
}
