import { isRouteErrorResponse, Link, useRouteError } from "react-router";
import { Button } from "../../components/ui/Button.tsx";
import NotFoundPage from "./NotFoundPage.tsx";

function ErrorMessage({ onRetry }: { onRetry(): void }) {
  return (
    <div className="error-page" role="alert">
      <h1 className="error-page__title">Ocurrió un error inesperado</h1>
      <p>No fue posible mostrar esta página. Vuelva a intentarlo en unos momentos.</p>
      <div className="error-page__actions">
        <Button onClick={onRetry}>Reintentar</Button>
        <Link className="btn btn--secondary" to="/">
          Ir al inicio
        </Link>
      </div>
    </div>
  );
}

/** Errors outside the portal areas (login screens, a failed page download): a full-page message. */
export function RootErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  return (
    <main className="error-page-shell">
      <ErrorMessage onRetry={() => window.location.reload()} />
    </main>
  );
}

/** Errors of one page inside /dashboard or /admin: shown in the content area, the sidebar stays usable. */
export function PageErrorBoundary() {
  return <ErrorMessage onRetry={() => window.location.reload()} />;
}
