import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { RoleType } from "@contract/roles.ts";
import type { UserDetailDto } from "@contract/users.dto.ts";
import { useTRPC } from "../../../lib/trpc.ts";
import { privilegeCodes, privilegePlan, type EditUserValues } from "../user-forms.ts";

export type SaveUserResult = { ok: true; saved: UserDetailDto } | { ok: false; failed: "update" | "privileges" };

export interface SaveUserInput {
  values: EditUserValues;
  /** The role chosen in the selector (sent by admin viewers only). */
  roleType: RoleType;
  /** The clinics chosen in the multi-select. */
  clinics: string[];
  /** Called as soon as the user update is stored, before any privilege call. */
  onUserSaved(saved: UserDetailDto): void;
}

/**
 * The edit-user save, up to three calls: the user update, plus the privileges as privilegePlan says (an empty list
 * first when an executive becomes another role, the selected clinics after the update when the saved role is
 * Ejecutivo). Remembers what the server holds between saves; stops at the first failed call and says which one.
 */
export function useSaveUser(user: UserDetailDto, viewerIsAdmin: boolean) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const update = useMutation(trpc.users.update.mutationOptions());
  const privileges = useMutation(trpc.users.setPrivileges.mutationOptions());
  // What the server holds now, for the privilege plan of the next save.
  const [stored, setStored] = useState(() => ({ role: user.roleType, clinics: privilegeCodes(user) }));

  async function save({ values, roleType, clinics, onUserSaved }: SaveUserInput): Promise<SaveUserResult> {
    const newRole = viewerIsAdmin ? roleType : user.roleType;
    const plan = privilegePlan({ viewerIsAdmin, savedRole: stored.role, newRole, savedClinics: stored.clinics, selectedClinics: clinics });

    if (plan.clearBefore) {
      try {
        await privileges.mutateAsync({ userId: user.id, privileges: [] });
      } catch {
        return { ok: false, failed: "privileges" };
      }
      setStored((current) => ({ ...current, clinics: [] }));
    }

    let saved: UserDetailDto;
    try {
      saved = await update.mutateAsync({ id: user.id, ...values, ...(viewerIsAdmin ? { roleType } : {}) });
    } catch {
      return { ok: false, failed: "update" };
    }
    setStored({ role: saved.roleType, clinics: privilegeCodes(saved) });
    onUserSaved(saved);

    if (plan.setAfter) {
      try {
        const rows = await privileges.mutateAsync({
          userId: user.id,
          privileges: plan.setAfter.map((codeClinicStr) => ({ codeClinicStr })),
        });
        setStored({ role: saved.roleType, clinics: rows.map((row) => row.codeClinicStr) });
      } catch {
        return { ok: false, failed: "privileges" };
      }
    }

    await queryClient.invalidateQueries({ queryKey: trpc.users.list.pathKey() });
    return { ok: true, saved };
  }

  return { save };
}
