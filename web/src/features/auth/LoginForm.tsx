import { useState, type FormEvent, type ReactNode } from "react";
import { z } from "zod";
import type { UserDto } from "@contract/users.dto.ts";
import { portalTypeFor } from "@contract/roles.ts";
import { loginPasswordSchema, rutSchema } from "@contract/validation.ts";
import { Banner } from "../../components/ui/Banner.tsx";
import { Button } from "../../components/ui/Button.tsx";
import { PasswordField } from "../../components/ui/PasswordField.tsx";
import { TextField } from "../../components/ui/TextField.tsx";
import { currentClinic } from "../../lib/clinic.ts";
import { formatRutInput } from "../../lib/rut-input.ts";
import { startSession } from "../../lib/session.ts";
import { errorCode, errorMessage } from "../../lib/trpc.ts";
import { useForm } from "../../lib/use-form.ts";
import { useLogin } from "./api/auth.api.ts";

const loginFormSchema = z.object({ rut: rutSchema, password: loginPasswordSchema });
const LOGIN_FAILED = "El Rut o Contraseña ingresados son inválidos";

export interface LoginFormProps {
  portal: "patient" | "staff";
  /** Called after the session is stored. */
  onLoggedIn(user: UserDto): void;
  /** Content between the fields and the submit button (e.g. the forgotten-password link). */
  extra?: ReactNode;
}

/** Rut + password form shared by the patient and staff logins; stores the session on success. */
export function LoginForm({ portal, onLoggedIn, extra }: LoginFormProps) {
  const form = useForm(loginFormSchema, { rut: "", password: "" });
  // SPEC §8: any login failure shows the same banner; a rate limit adds the server's reason underneath.
  const [failure, setFailure] = useState<{ detail?: string } | null>(null);
  const login = useLogin({
    onSuccess: ({ user, accessToken }) => {
      startSession(user, accessToken, portalTypeFor(user.roleType));
      onLoggedIn(user);
    },
    onError: (error) => setFailure(errorCode(error) === "TOO_MANY_REQUESTS" ? { detail: errorMessage(error, "") } : {}),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!form.validate() || login.isPending) return;
    setFailure(null);
    login.mutate({ portal, rut: form.values.rut, password: form.values.password, clinic: currentClinic().key });
  }

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
