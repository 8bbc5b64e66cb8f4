import { describe, expect, it } from "vitest";
import {
  clinicByKey,
  clinicTitle,
  clinics,
  framesForClinic,
  resolveClinic,
  schedulingFrames,
  schedulingTabTitle,
  type ClinicKey,
} from "./clinics.ts";
import { menuFor } from "./menu.ts";

// Every clinic of SPEC §1 with its two production hosts and its development host.
const expectedHosts: Array<[ClinicKey, string, string, string]> = [
  ["hcs-rcr", "portalpacientes.clinicasur.cl", "mi.clinicasur.cl", "clinicasur.localhost:4200"],
  ["puertomontt-rcr", "portalpacientes.clinicapuertomontt.cl", "mi.clinicapuertomontt.cl", "clinicapuertomontt.localhost:4200"],
  ["portada-rcr", "portalpacientes.clinicaportada.cl", "mi.clinicaportada.cl", "clinicaportada.localhost:4200"],
  ["losandes-rcr", "portalpacientes.clinicalosandes.cl", "mi.clinicalosandes.cl", "clinicalosandes.localhost:4200"],
  ["atacama-rcr", "portalpacientes.clinicaatacama.cl", "mi.clinicaatacama.cl", "clinicaatacama.localhost:4200"],
  ["lircay-rcr", "portalpacientes.clinicalircay.cl", "mi.clinicalircay.cl", "clinicalircay.localhost:4200"],
  ["maitenes", "portalpacientes.clinicamaitenes.cl", "mi.clinicamaitenes.cl", "clinicamaitenes.localhost:4200"],
];

describe("clinic catalogue", () => {
  it("holds the seven clinics of the spec with their codes and keys", () => {
    expect(clinics.map((clinic) => [clinic.code, clinic.key])).toEqual([
      [7, "hcs-rcr"],
      [8, "puertomontt-rcr"],
      [9, "portada-rcr"],
      [10, "losandes-rcr"],
      [11, "atacama-rcr"],
      [12, "lircay-rcr"],
      [13, "maitenes"],
    ]);
  });

  it("gives every clinic its own logo, title, forms and laboratory port", () => {
    for (const field of ["logo", "title", "helpFormUrl", "surveyFormUrl", "labPort"] as const) {
      expect(new Set(clinics.map((clinic) => clinic[field])).size, field).toBe(clinics.length);
    }
    expect(clinicByKey("portada-rcr")?.logo).toBe("/logos/portada-rcr.svg");
  });
});

describe("resolveClinic (host → clinic)", () => {
  it.each(expectedHosts)("selects %s from its production hosts and its dev host", (key, organisationHost, miHost, devHost) => {
    expect(resolveClinic(organisationHost).key).toBe(key);
    expect(resolveClinic(miHost).key).toBe(key);
    expect(resolveClinic(devHost).key).toBe(key);
    expect(resolveClinic(`https://${organisationHost}/login`).key).toBe(key);
    expect(resolveClinic(`https://${miHost}/dashboard/scheduling?x=1#top`).key).toBe(key);
    expect(resolveClinic(`http://${devHost}/dashboard/my-bills`).key).toBe(key);
    expect(resolveClinic(`HTTPS://${miHost.toUpperCase()}/`).key).toBe(key);
  });

  it("maps localhost:4200 to maitenes", () => {
    expect(resolveClinic("http://localhost:4200/login").key).toBe("maitenes");
    expect(resolveClinic("localhost:4200").key).toBe("maitenes");
  });

  it("falls back to maitenes for unknown or empty addresses", () => {
    expect(resolveClinic("https://www.example.cl/login").key).toBe("maitenes");
    expect(resolveClinic("http://127.0.0.1:4210/").key).toBe("maitenes");
    expect(resolveClinic("").key).toBe("maitenes");
    expect(resolveClinic("not a url at all").key).toBe("maitenes");
  });

  it("reads the host only: a clinic host in another site's path or query does not select that clinic", () => {
    expect(resolveClinic("https://evil.example/?next=mi.clinicasur.cl").key).toBe("maitenes");
    expect(resolveClinic("https://mi.clinicasur.cl.evil.example/").key).toBe("maitenes");
    expect(resolveClinic("https://www.portalpacientes.clinicalircay.cl/").key).toBe("lircay-rcr");
  });
});

describe("clinicTitle", () => {
  it("gives the clinic's own title, and the South clinic's title for an unknown key", () => {
    expect(clinicTitle("portada-rcr")).toBe("Clínica Portada");
    expect(clinicTitle("maitenes")).toBe("Clínica Los Maitenes");
    expect(clinicTitle("desconocida")).toBe("Hospital Clínico del Sur");
    expect(clinicTitle(undefined)).toBe("Hospital Clínico del Sur");
  });
});

describe("framesForClinic", () => {
  it("gives maitenes every frame whose key starts with maitenes: its three sub-sites", () => {
    expect(framesForClinic("maitenes").map((frame) => [frame.key, frame.externalCenterId])).toEqual([
      ["maitenes-melipilla", "MMELI@10"],
      ["maitenes-penaflor", "MPENA@12"],
      ["maitenes-talagante", "MTALA@11"],
    ]);
  });

  it("gives every other clinic exactly the frame with its own key and center id", () => {
    const centerIds: Record<string, string> = {
      "hcs-rcr": "HCS@4",
      "puertomontt-rcr": "PMONTT@6",
      "portada-rcr": "PORTADA@1",
      "losandes-rcr": "ANDES@5",
      "atacama-rcr": "ATCAMA@2",
      "lircay-rcr": "LIRCAY@3",
    };
    for (const clinic of clinics.filter((candidate) => candidate.key !== "maitenes")) {
      const frames = framesForClinic(clinic.key);
      expect(frames).toHaveLength(1);
      expect(frames[0]).toMatchObject({ key: clinic.key, externalCenterId: centerIds[clinic.key] });
    }
  });

  it("writes every center id as CODE@number", () => {
    for (const frame of schedulingFrames) expect(frame.externalCenterId).toMatch(/^[A-Z]+@\d+$/);
  });
});

describe("schedulingTabTitle", () => {
  it("uses the part after the first hyphen, each word capitalised, for maitenes", () => {
    expect(schedulingTabTitle("maitenes", "maitenes-melipilla")).toBe("Melipilla");
    expect(schedulingTabTitle("maitenes", "maitenes-peñaflor")).toBe("Peñaflor");
    expect(schedulingTabTitle("maitenes", "maitenes-talagante")).toBe("Talagante");
    expect(schedulingTabTitle("maitenes", "maitenes-san antonio")).toBe("San Antonio");
    expect(schedulingTabTitle("maitenes", "maitenes-ÑUÑOA centro")).toBe("Ñuñoa Centro");
  });

  it("keeps the given title for the other clinics", () => {
    expect(schedulingTabTitle("hcs-rcr", "Hospital Clínico del Sur")).toBe("Hospital Clínico del Sur");
    expect(schedulingTabTitle("portada-rcr", "portada-centro")).toBe("portada-centro");
  });
});

describe("Maitenes reduced patient menu", () => {
  const visible = (clinic: ClinicKey) =>
    menuFor("2", clinic)
      .filter((item) => !item.hide)
      .map((item) => item.url);

  it("hides hospital bills from Maitenes patients and only that item", () => {
    expect(visible("maitenes")).toEqual([
      "/dashboard/scheduling",
      "/dashboard/my-appointments",
      "/dashboard/imaging",
      "/dashboard/laboratory",
      "/dashboard/account-settings",
    ]);
    for (const item of menuFor("2", "maitenes")) expect(item.hide).toBe(!item.isMaitenes);
  });

  it("shows every patient page on the other six clinics", () => {
    for (const clinic of clinics.filter((candidate) => candidate.key !== "maitenes")) {
      expect(visible(clinic.key)).toContain("/dashboard/my-bills");
      expect(visible(clinic.key)).toHaveLength(6);
    }
  });
});
