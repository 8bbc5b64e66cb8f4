import { randomBytes, randomInt } from "node:crypto";
import { installmentOptions, type TestCard } from "./webpay-cards.ts";

// In-memory Webpay Plus transactions and the rules of their life cycle, as the REST API v1.2 exposes them.

export type WebpayStatus = "INITIALIZED" | "AUTHORIZED" | "REVERSED" | "FAILED" | "NULLIFIED" | "PARTIALLY_NULLIFIED" | "CAPTURED";

/** Where the payment form left the transaction (internal; the API shows it through status and error messages). */
export type FormOutcome = "pending" | "authorized" | "rejected" | "aborted" | "timeout";

export interface Refund {
  type: "REVERSED" | "NULLIFIED";
  amount: number;
  at: Date;
  authorizationCode?: string;
}

export interface MockTransaction {
  token: string;
  commerceCode: string;
  buyOrder: string;
  sessionId: string;
  amount: number;
  returnUrl: string;
  createdAt: Date;
  outcome: FormOutcome;
  status: WebpayStatus;
  committed: boolean;
  cardNumber?: string;
  cardBrand?: string;
  paymentTypeCode?: string;
  installmentsNumber: number;
  installmentsAmount?: number;
  authorizationCode?: string;
  responseCode?: number;
  vci?: string;
  transactionDate: Date;
  balance: number;
  refunds: Refund[];
  /** API calls received for this token, for testers (e.g. to check that a commit reached the provider once). */
  calls: { commit: number; status: number; refund: number };
}

export interface CardPayment {
  card: TestCard;
  /** The CVV typed (credit and prepaid); a wrong one is rejected like the bank would. */
  cvv?: string;
  installments: number;
}

const MAX_STATUS_AGE_MS = 7 * 24 * 60 * 60 * 1000;

const accountingDate = (date: Date) => `${String(date.getUTCMonth() + 1).padStart(2, "0")}${String(date.getUTCDate()).padStart(2, "0")}`;

export class WebpayStore {
  private readonly transactions = new Map<string, MockTransaction>();
  readonly createCalls: Array<{ buyOrder: string; at: Date }> = [];

  constructor(
    private readonly tokenTtlMs: number,
    private readonly now: () => Date,
  ) {}

  get ttlMs(): number {
    return this.tokenTtlMs;
  }

  create(input: { commerceCode: string; buyOrder: string; sessionId: string; amount: number; returnUrl: string }): MockTransaction {
    const token = randomBytes(32).toString("hex");
    const now = this.now();
    const transaction: MockTransaction = {
      ...input,
      token,
      createdAt: now,
      transactionDate: now,
      outcome: "pending",
      status: "INITIALIZED",
      committed: false,
      installmentsNumber: 0,
      balance: input.amount,
      refunds: [],
      calls: { commit: 0, status: 0, refund: 0 },
    };
    this.transactions.set(token, transaction);
    this.createCalls.push({ buyOrder: input.buyOrder, at: now });
    return transaction;
  }

  find(token: string): MockTransaction | undefined {
    return this.transactions.get(token);
  }

  list(): MockTransaction[] {
    return [...this.transactions.values()].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
  }

  /** Whether the form may still be used with this token (5 minutes from create by default). */
  isExpired(transaction: MockTransaction): boolean {
    return this.now().getTime() - transaction.createdAt.getTime() > this.tokenTtlMs;
  }

  isTooOldForStatus(transaction: MockTransaction): boolean {
    return this.now().getTime() - transaction.createdAt.getTime() > MAX_STATUS_AGE_MS;
  }

  /** The card was charged or refused at the form; the commerce still has to commit. */
  pay(transaction: MockTransaction, payment: CardPayment): void {
    const { card } = payment;
    const cvvOk = card.cvv === undefined || payment.cvv === card.cvv;
    const approved = card.approved && cvvOk;
    const option = installmentOptions.find((candidate) => candidate.count === payment.installments) ?? installmentOptions[0];
    const now = this.now();
    transaction.transactionDate = now;
    transaction.cardNumber = card.number.slice(-4);
    transaction.cardBrand = card.brand;
    if (card.kind === "credit") {
      transaction.paymentTypeCode = option.paymentTypeCode;
      transaction.installmentsNumber = option.count === 1 ? 0 : option.count;
      if (option.count > 1) transaction.installmentsAmount = Math.round(transaction.amount / option.count);
    } else {
      transaction.paymentTypeCode = card.kind === "debit" ? "VD" : "VP";
      transaction.installmentsNumber = 0;
    }
    if (approved) {
      transaction.outcome = "authorized";
      transaction.status = "AUTHORIZED";
      transaction.responseCode = 0;
      transaction.vci = "TSY";
      transaction.authorizationCode = String(randomInt(1, 999_999)).padStart(6, "0");
    } else {
      transaction.outcome = "rejected";
      transaction.status = "FAILED";
      transaction.responseCode = -1;
      transaction.vci = "TSN";
      transaction.authorizationCode = "000000";
    }
  }

  abort(transaction: MockTransaction): void {
    transaction.outcome = "aborted";
    transaction.status = "FAILED";
  }

  timeOut(transaction: MockTransaction): void {
    transaction.outcome = "timeout";
    transaction.status = "FAILED";
  }

  /** Numeric internal state, as the real service quotes it in "Invalid status 'N'…" errors. */
  statusNumber(transaction: MockTransaction): number {
    if (transaction.committed) return 2;
    return { pending: 0, authorized: 1, rejected: 1, aborted: 3, timeout: 4 }[transaction.outcome];
  }

  /** The transaction object of commit and status (reduced while nothing was paid). */
  view(transaction: MockTransaction): Record<string, unknown> {
    const base = {
      amount: transaction.amount,
      status: transaction.status,
      buy_order: transaction.buyOrder,
      session_id: transaction.sessionId,
      accounting_date: accountingDate(transaction.transactionDate),
      transaction_date: transaction.transactionDate.toISOString(),
      installments_number: transaction.installmentsNumber,
    };
    if (transaction.outcome === "pending" || transaction.outcome === "aborted" || transaction.outcome === "timeout") return base;
    return {
      vci: transaction.vci,
      ...base,
      card_detail: { card_number: transaction.cardNumber },
      authorization_code: transaction.authorizationCode,
      payment_type_code: transaction.paymentTypeCode,
      response_code: transaction.responseCode,
      ...(transaction.installmentsAmount !== undefined ? { installments_amount: transaction.installmentsAmount } : {}),
      ...(transaction.refunds.length ? { balance: transaction.balance } : {}),
    };
  }

  /** Full refund within 3 hours of the sale reverses it; anything else is a nullification of that amount. */
  refund(transaction: MockTransaction, amount: number): Record<string, unknown> {
    const now = this.now();
    const withinReversalWindow = now.getTime() - transaction.transactionDate.getTime() <= 3 * 60 * 60 * 1000;
    if (withinReversalWindow && amount === transaction.amount && transaction.refunds.length === 0) {
      transaction.refunds.push({ type: "REVERSED", amount, at: now });
      transaction.status = "REVERSED";
      transaction.balance = 0;
      return { type: "REVERSED" };
    }
    const authorizationCode = String(randomInt(1, 999_999)).padStart(6, "0");
    transaction.balance -= amount;
    transaction.refunds.push({ type: "NULLIFIED", amount, at: now, authorizationCode });
    transaction.status = transaction.balance === 0 ? "NULLIFIED" : "PARTIALLY_NULLIFIED";
    return {
      type: "NULLIFIED",
      authorization_code: authorizationCode,
      authorization_date: now.toISOString(),
      nullified_amount: amount,
      balance: transaction.balance,
      response_code: 0,
    };
  }
}
