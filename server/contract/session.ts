// What a signed-in screen is told when the server no longer takes its session (issue 45 §3), shared by the server's
// 401 answers and the web app's message on the login it returns to.

/** The person ended this session from another of their devices ('Cerrar las demás sesiones', or that one session). */
export const sessionEndedElsewhereMessage = "Su sesión se cerró desde otro dispositivo. Ingrese nuevamente.";
