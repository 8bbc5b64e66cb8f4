import type { AppDeps, RequestMeta } from "../../deps.ts";
import type { Prisma } from "../../generated/prisma/client.ts";
import type { SessionUser } from "../../http/authenticate.ts";
import { parseInput } from "../../http/validate.ts";
import { toUserDto, type ClinicDto, type UserDetailDto, type UsersPage } from "../../contract/users.dto.ts";
import { userSearchWhere } from "../../db/users.repository.ts";
import { pageWindow } from "../../contract/params.ts";
import { requireStaffActor, visibleUsersWhere } from "../../lib/access.ts";
import { audit } from "../../lib/audit.ts";
import { findVisibleUser, toUserDetailDto } from "./users-scope.ts";
import { ZListUsersInput, ZUserId } from "./users.schemas.ts";
import { userListRows } from "./users-reads.repository.ts";

/**
 * GET /admin/filter/users: the users the caller may see, newest first, filtered by role type and by a search term
 * matched against RUT (with or without dots), e-mail and names. Throws FORBIDDEN for patients, BAD_REQUEST for a bad
 * page, limit, role type or search term.
 */
export async function listUsers(deps: AppDeps, user: SessionUser, input: unknown, meta: RequestMeta): Promise<UsersPage> {
  const actor = await requireStaffActor(deps, user, meta, "user.list");
  const { param, roleType, page, limit } = parseInput(ZListUsersInput, input);
  const where: Prisma.UserWhereInput = {
    AND: [visibleUsersWhere(actor), roleType === undefined ? {} : { roleType }, userSearchWhere(param)],
  };
  // The total first (cached between pages): it tells the page's query how to search (users-reads.repository.ts).
  const total = await deps.cache.userTotals.get(JSON.stringify(where), () => deps.prisma.user.count({ where }));
  const rows = await userListRows(deps, { actor, roleType, param, ...pageWindow({ page, limit }) }, total);
  return { usersList: rows.map(toUserDto), page, total };
}

/**
 * GET /admin/:id: the user with its privileges and patient clinics, audited (a patient's profile read by staff shows in
 * their 'Accesos a mis datos'). Throws NOT_FOUND for a missing user and for one outside an executive's clinics,
 * BAD_REQUEST for an id that is not a positive integer.
 */
export async function getUser(deps: AppDeps, user: SessionUser, id: unknown, meta: RequestMeta): Promise<UserDetailDto> {
  const actor = await requireStaffActor(deps, user, meta, "user.read");
  const userId = parseInput(ZUserId, id);
  const target = await findVisibleUser(deps, actor, meta, "user.read", { id: userId });
  await audit(deps, user, meta, { action: "user.read", target });
  return toUserDetailDto(target);
}

/** The clinic catalogue for the privileges multi-select (staff only). */
export async function listClinics(deps: AppDeps, user: SessionUser, meta: RequestMeta): Promise<ClinicDto[]> {
  await requireStaffActor(deps, user, meta, "clinic.list");
  return deps.prisma.clinic.findMany({ select: { code: true, codeClinicStr: true, title: true }, orderBy: { code: "asc" } });
}
