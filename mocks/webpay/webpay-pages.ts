import { html, renderPage, SafeHtml } from "../html.ts";
import { installmentOptions, testCards, type TestCard } from "./webpay-cards.ts";
import type { MockTransaction } from "./webpay-store.ts";

// The payment form's screens (Spanish, minimal): card number → card details (or bank simulator) → back to the commerce.

const clp = (amount: number) => `$ ${amount.toLocaleString("es-CL")}`;

function header(transaction: MockTransaction): SafeHtml {
  return html`<h1>Webpay Plus (simulador)</h1>
    <div class="card">
      <div>Orden de compra: <strong>${transaction.buyOrder}</strong></div>
      <div>Monto a pagar: <strong data-testid="webpay-amount">${clp(transaction.amount)}</strong></div>
    </div>`;
}

/** Sends the browser back to the commerce when the form gives up (timeout), without script. */
function timeoutRefresh(transaction: MockTransaction, secondsLeft: number): SafeHtml {
  const target = `timeout?token=${transaction.token}`;
  return html`<meta http-equiv="refresh" content="${Math.max(1, Math.ceil(secondsLeft))};url=${target}" />`;
}

function abortButton(transaction: MockTransaction): SafeHtml {
  return html`<form method="post" action="anular" class="inline">
    <input type="hidden" name="token" value="${transaction.token}" />
    <button type="submit" class="secondary">Anular</button>
  </form>`;
}

function errorList(errors: string[]): SafeHtml {
  return errors.length ? html`<div class="card error" role="alert">${errors.map((error) => html`<div>${error}</div>`)}</div>` : html``;
}

export function renderCardNumberPage(transaction: MockTransaction, secondsLeft: number, errors: string[] = []): string {
  return renderPage(
    "Webpay Plus — Pago con tarjeta",
    html`${timeoutRefresh(transaction, secondsLeft)} ${header(transaction)} ${errorList(errors)}
      <form method="post" action="tarjeta" class="card">
        <input type="hidden" name="token" value="${transaction.token}" />
        <label>Número de tarjeta <input name="cardNumber" inputmode="numeric" autocomplete="off" maxlength="23" required /></label>
        <button type="submit">Continuar</button>
      </form>
      ${abortButton(transaction)}
      <h2>Tarjetas de prueba</h2>
      <table>
        <thead>
          <tr>
            <th>Tarjeta</th>
            <th>Número</th>
            <th>CVV</th>
            <th>Resultado</th>
          </tr>
        </thead>
        <tbody>
          ${testCards.map(
            (card) =>
              html`<tr>
                <td>${card.brand}</td>
                <td>${card.number}</td>
                <td>${card.cvv ?? "—"}</td>
                <td>${card.approved ? "Aprobada" : "Rechazada"}</td>
              </tr>`,
          )}
        </tbody>
      </table>
      <p class="muted">Débito: el simulador bancario acepta RUT 11.111.111-1 y clave 123.</p>`,
  );
}

export function renderCardDetailsPage(transaction: MockTransaction, card: TestCard, secondsLeft: number, errors: string[] = []): string {
  const fields =
    card.kind === "debit"
      ? html`<p>Simulador bancario (${card.brand} terminada en ${card.number.slice(-4)})</p>
          <label>RUT <input name="rut" autocomplete="off" required /></label>
          <label>Clave <input name="password" type="password" autocomplete="off" required /></label>`
      : html`<p>${card.brand} terminada en ${card.number.slice(-4)}</p>
          <label>Fecha de expiración (MM/AA) <input name="expiry" placeholder="MM/AA" maxlength="5" autocomplete="off" required /></label>
          <label>CVV <input name="cvv" inputmode="numeric" maxlength="4" autocomplete="off" required /></label>
          ${
            card.kind === "credit"
              ? html`<label
                  >Cuotas
                  <select name="installments">
                    ${installmentOptions.map((option) => html`<option value="${option.count}">${option.label}</option>`)}
                  </select></label
                >`
              : html``
          }`;
  return renderPage(
    "Webpay Plus — Datos de la tarjeta",
    html`${timeoutRefresh(transaction, secondsLeft)} ${header(transaction)} ${errorList(errors)}
      <form method="post" action="pagar" class="card">
        <input type="hidden" name="token" value="${transaction.token}" />
        <input type="hidden" name="cardNumber" value="${card.number}" />
        ${fields}
        <button type="submit">Pagar</button>
      </form>
      ${abortButton(transaction)}`,
  );
}

/** A form the browser posts back to the commerce at once (and a button in case scripts are off). */
export function renderReturnPostPage(returnUrl: string, fields: Record<string, string>, message: string): string {
  return renderPage(
    "Webpay Plus — Volviendo al comercio",
    html`<h1>Webpay Plus (simulador)</h1>
      <p>${message}</p>
      <form id="return" method="post" action="${returnUrl}">
        ${Object.entries(fields).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}" />`)}
        <button type="submit">Volver al comercio</button>
      </form>
      <script>
        document.getElementById("return").submit();
      </script>`,
  );
}

export function renderErrorPage(message: string, back?: { returnUrl: string; fields: Record<string, string> }): string {
  return renderPage(
    "Webpay Plus — Error",
    html`<h1>Webpay Plus (simulador)</h1>
      <div class="card error" role="alert">${message}</div>
      ${
        back
          ? html`<form method="post" action="${back.returnUrl}">
              ${Object.entries(back.fields).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}" />`)}
              <button type="submit">Volver al comercio</button>
            </form>`
          : html``
      }`,
  );
}

const outcomeLabel: Record<MockTransaction["outcome"], string> = {
  pending: "Esperando pago",
  authorized: "Autorizada",
  rejected: "Rechazada",
  aborted: "Anulada por el usuario",
  timeout: "Tiempo agotado",
};

/** The testers' list of every transaction the mock holds. */
export function renderTransactionsPage(transactions: MockTransaction[]): string {
  return renderPage(
    "Webpay Plus (simulador) — Transacciones",
    html`<h1>Webpay Plus (simulador)</h1>
      <p class="muted">
        API REST v1.2 en <code>/webpay/rswebpaytransaction/api/webpay/v1.2</code>. Credenciales aceptadas: las de integración de Transbank.
        Transacciones en memoria (se pierden al reiniciar).
      </p>
      <table>
        <thead>
          <tr>
            <th>Creada</th>
            <th>Orden de compra</th>
            <th>Monto</th>
            <th>Estado</th>
            <th>Formulario</th>
            <th>Confirmada</th>
            <th>Tarjeta</th>
            <th>Llamadas (commit/status/refund)</th>
            <th>Token</th>
          </tr>
        </thead>
        <tbody>
          ${transactions.map(
            (transaction) =>
              html`<tr>
                <td>${transaction.createdAt.toISOString()}</td>
                <td>${transaction.buyOrder}</td>
                <td>${clp(transaction.amount)}</td>
                <td>${transaction.status}</td>
                <td>${outcomeLabel[transaction.outcome]}</td>
                <td>${transaction.committed ? "Sí" : "No"}</td>
                <td>${transaction.cardNumber ? `${transaction.cardBrand} **** ${transaction.cardNumber}` : "—"}</td>
                <td>${transaction.calls.commit}/${transaction.calls.status}/${transaction.calls.refund}</td>
                <td><code>${transaction.token.slice(0, 12)}…</code></td>
              </tr>`,
          )}
        </tbody>
      </table>`,
  );
}
