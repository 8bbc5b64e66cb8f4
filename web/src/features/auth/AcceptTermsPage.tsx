import { useState, type FormEvent, type MouseEvent } from "react";
import { useNavigate } from "react-router";
import { Banner } from "../../components/ui/Banner.tsx";
import { Button } from "../../components/ui/Button.tsx";
import { Checkbox } from "../../components/ui/Checkbox.tsx";
import { DocumentIcon } from "../../components/ui/icons.tsx";
import { updateSessionUser } from "../../lib/session.ts";
import { signOut } from "../../lib/sign-out.ts";
import { AuthLayout } from "./AuthLayout.tsx";
import { useTermsDocumentUrl } from "../../lib/clinic-queries.ts";
import { useAcceptTerms } from "./api/terms.api.ts";

// SPEC §8 leaves the wording of these failures open.
const PDF_FAILED = "No fue posible abrir el documento, por favor vuelva a intentarlo";
const ACCEPT_FAILED = "No fue posible registrar su aceptación, por favor vuelva a intentarlo";

/** /accept-tyc: first access of a patient (SPEC §2, §4). */
export default function AcceptTermsPage() {
  const navigate = useNavigate();
  const [accepted, setAccepted] = useState(true);
  const [failure, setFailure] = useState<string | null>(null);
  const documentUrl = useTermsDocumentUrl();
  const accept = useAcceptTerms({
    onSuccess: (dateTyc) => {
      updateSessionUser({ dateTyc });
      void navigate("/dashboard/account-settings");
    },
    onError: () => setFailure(ACCEPT_FAILED),
  });

  // The link works as a plain new-tab link once the address is known; before that it fetches it and opens it.
  async function openDocument(event: MouseEvent<HTMLAnchorElement>) {
    if (documentUrl.data) return;
    event.preventDefault();
    const { data } = await documentUrl.refetch();
    if (data) window.open(data, "_blank", "noopener");
    else setFailure(PDF_FAILED);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (accept.isPending) return;
    if (accepted) {
      setFailure(null);
      accept.mutate();
      return;
    }
    void signOut().then(() => navigate("/login"));
  }

  return (
    <AuthLayout>
      <h1 className="auth__title">Términos y condiciones</h1>
      <p className="auth__intro">Antes de usar el portal, lea los términos y condiciones de uso del servicio.</p>
      <form className="form" onSubmit={submit}>
        {failure ? <Banner onClose={() => setFailure(null)}>{failure}</Banner> : null}
        <a
          className="document-link"
          href={documentUrl.data ?? "#"}
          target="_blank"
          rel="noopener noreferrer"
          onClick={(event) => void openDocument(event)}
        >
          <DocumentIcon />
          <span>Ver términos y condiciones (PDF)</span>
        </a>
        <Checkbox checked={accepted} onChange={setAccepted} name="acceptTerms">
          He leído y acepto los términos y condiciones
        </Checkbox>
        <Button type="submit" block disabled={accept.isPending}>
          Continuar
        </Button>
      </form>
    </AuthLayout>
  );
}
