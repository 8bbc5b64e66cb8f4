import type { Socket } from "node:net";

// Errors Node's HTTP parser raises before Fastify sees a request (oversized headers, malformed framing) are answered
// here, on the socket, in Spanish and in the portal's error shape; Node's default says "Client Error" in English.

const answers: Record<string, { status: number; reason: string; message: string }> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    reason: "Request Header Fields Too Large",
    message: "La cabecera de la solicitud es demasiado grande",
  },
  HPE_REQUEST_TIMEOUT: { status: 408, reason: "Request Timeout", message: "La solicitud tardó demasiado" },
};
const malformed = { status: 400, reason: "Bad Request", message: "Solicitud mal formada" };

export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === "ECONNRESET" || !socket.writable) {
    socket.destroy();
    return;
  }
  const { status, reason, message } = answers[error.code ?? ""] ?? malformed;
  const body = JSON.stringify({ statusCode: status, error: error.code ?? "BAD_REQUEST", message });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
