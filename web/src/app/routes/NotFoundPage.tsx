import { Link } from "react-router";

/** Any path outside the route table (SPEC §2). */
export default function NotFoundPage() {
  return (
    <main className="error-page-shell">
      <div className="error-page">
        <p className="error-page__code" aria-hidden="true">
          404
        </p>
        <h1 className="error-page__title">nopagefound !</h1>
        <p>La página que busca no existe o cambió de dirección.</p>
        <div className="error-page__actions">
          <Link className="btn btn--primary" to="/">
            Ir al inicio
          </Link>
        </div>
      </div>
    </main>
  );
}
