import type { ComponentType, SVGProps } from "react";
import type { MenuIcon } from "@contract/menu.ts";
import {
  AccountIcon,
  AuditIcon,
  BillsIcon,
  CalendarIcon,
  DocumentIcon,
  ImagingIcon,
  LaboratoryIcon,
  UsersIcon,
} from "../../components/ui/icons.tsx";

/** The SVG of each menu icon name of server/contract/menu.ts. */
export const menuIcons: Record<MenuIcon, ComponentType<SVGProps<SVGSVGElement> & { size?: number }>> = {
  calendar: CalendarIcon,
  imaging: ImagingIcon,
  laboratory: LaboratoryIcon,
  bills: BillsIcon,
  account: AccountIcon,
  users: UsersIcon,
  audit: AuditIcon,
  requests: DocumentIcon,
};
