import { useState, type ReactNode } from "react";
import type { UserDto } from "@contract/users.dto.ts";
import { portalTypeFor } from "@contract/roles.ts";
import { Banner } from "../../components/ui/Banner.tsx";
import { Button } from "../../components/ui/Button.tsx";
import { PasswordField } from "../../components/ui/PasswordField.tsx";
import { TextField } from "../../components/ui/TextField.tsx";
import { currentClinic } from "../../lib/clinic.ts";
import { formatRutInput } from "../../lib/rut-input.ts";
import { hideToast } from "../../lib/overlay-store.ts";
import { errorCode, errorMessage, errorStatus } from "../../lib/trpc-client.ts";
import { useForm } from "../../lib/use-form.ts";
import { useLogin } from "./api/auth.api.ts";
import { SecondFactorStep } from "./SecondFactorStep.tsx";

const loginFormSchema = () => import("./auth-forms.ts").then((forms) => forms.loginFormSchema);
const LOGIN_FAILED = "El Rut o Contraseña ingresados son inválidos";
const PORTAL_NOT_ANSWERING = "El portal no está respondiendo. Vuelva a intentarlo en unos minutos.";

/** What the banner says under SPEC §8's words: the throttle's reason, or that the portal did not answer at all. */
function failureDetail(error: unknown): string | undefined {
  if (errorCode(error) === "TOO_MANY_REQUESTS") return errorMessage(error, "") || undefined;
  const status = errorStatus(error);
  return status === undefined || status >= 500 ? PORTAL_NOT_ANSWERING : undefined;
}

export interface LoginFormProps {
  portal: "patient" | "staff";
  /** Called after the session is stored; `secondFactorSetup` when staff must set up the second factor (issue 27). */
  onLoggedIn(user: UserDto, options: { secondFactorSetup: boolean }): void;
  /** Content between the fields and the submit button (e.g. the forgotten-password link). */
  extra?: ReactNode;
}

/** Rut + password form shared by the patient and staff logins; stores the session on success. */
export function LoginForm({ portal, onLoggedIn, extra }: LoginFormProps) {
  const form = useForm(loginFormSchema, { rut: "", password: "" });
  // SPEC §8: any login failure shows the same banner, and only it (issue 33: one failure, one message, one place —
  // a toast still showing, such as 'Su sesión expiró', gives way); a rate limit or a portal that did not answer adds
  // the reason underneath.
  const [failure, setFailure] = useState<{ detail?: string } | null>(null);
  // An account with a second factor: the first step's token reaches only the second step (issue 27).
  const [pendingToken, setPendingToken] = useState<string | null>(null);
  async function signedIn(user: UserDto, accessToken: string, secondFactorSetup: boolean) {
    // Writing the session needs crypto-js (storage.ts): loaded here, not with the page (issue 14).
    const { startSession } = await import("../../lib/session.ts");
    startSession(user, accessToken, portalTypeFor(user.roleType));
    onLoggedIn(user, { secondFactorSetup });
  }
  const login = useLogin({
    onSuccess: async ({ user, accessToken, secondFactor }) => {
      if (secondFactor === "verify") setPendingToken(accessToken);
      else await signedIn(user, accessToken, secondFactor === "setup");
    },
    onError: (error) => {
      hideToast();
      setFailure({ detail: failureDetail(error) });
    },
  });

  const submit = form.submit(({ rut, password }) => {
    if (login.isPending) return;
    setFailure(null);
    login.mutate({ portal, rut, password, clinic: currentClinic().key });
  });

  if (pendingToken)
    return (
      <SecondFactorStep
        pendingToken={pendingToken}
        onVerified={({ user, accessToken }) => signedIn(user, accessToken, false)}
        onCancel={() => setPendingToken(null)}
      />
    );

  return (
    <form className="form" onSubmit={submit} noValidate>
      {failure ? (
        <Banner onClose={() => setFailure(null)}>
          {LOGIN_FAILED}
          {failure.detail ? <span className="banner__detail">{failure.detail}</span> : null}
        </Banner>
      ) : null}
      <TextField
        label="Rut"
        placeholder="12.345.678-9"
        autoComplete="username"
        inputMode="text"
        maxLength={12}
        {...form.field("rut", formatRutInput)}
      />
      <PasswordField label="Contraseña" autoComplete="current-password" {...form.field("password")} />
      {extra}
      <Button type="submit" block disabled={login.isPending}>
        Ingresar
      </Button>
    </form>
  );
}
